import GeoConvBytes
package import GeoConvCore

/// Thrift's compact protocol, the encoding of Parquet's footer and page headers (Apache
/// Thrift, "Thrift Compact protocol encoding", THRIFT-110): field headers as a delta from
/// the previous field id in the high nibble and the type in the low one, integers as
/// zigzag varints, binaries and strings with a varint length, lists with a size-and-type
/// byte, structs ended by a stop byte.
package enum ThriftType: UInt8 {
    case stop = 0
    case boolTrue = 1
    case boolFalse = 2
    case byte = 3
    case i16 = 4
    case i32 = 5
    case i64 = 6
    case double = 7
    case binary = 8
    case list = 9
    case set = 10
    case
        map = 11
    case structure = 12
}

/// Writes compact-protocol structs: `field(_:_:)` headers in increasing id order, then the
/// value; `beginStruct`/`endStruct` around nested structs.
package struct ThriftWriter {
    private(set) var bytes: [UInt8] = []
    private var lastField: [Int16] = [0]

    package mutating func varint(_ value: UInt64) { ByteEncoding.appendVarint(value, to: &bytes) }

    private mutating func zigzag(_ value: Int64) { ByteEncoding.appendZigzag(value, to: &bytes) }

    private mutating func header(_ id: Int16, _ type: ThriftType) {
        let last = lastField[lastField.count - 1]
        let delta = Int(id) - Int(last)
        if delta > 0, delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            zigzag(Int64(id))
        }
        lastField[lastField.count - 1] = id
    }

    package mutating func i32(_ id: Int16, _ value: Int32) {
        header(id, .i32)
        zigzag(Int64(value))
    }

    package mutating func i64(_ id: Int16, _ value: Int64) {
        header(id, .i64)
        zigzag(value)
    }

    package mutating func bool(_ id: Int16, _ value: Bool) { header(id, value ? .boolTrue : .boolFalse) }

    /// A double: eight bytes, little-endian (the compact protocol's order).
    package mutating func double(_ id: Int16, _ value: Double) {
        header(id, .double)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func byte(_ id: Int16, _ value: UInt8) {
        header(id, .byte)
        bytes.append(value)
    }

    package mutating func binary(_ id: Int16, _ value: [UInt8]) {
        header(id, .binary)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func string(_ id: Int16, _ value: String) { binary(id, Array(value.utf8)) }

    /// A struct field: its header, then the caller writes its fields and calls `endStruct`.
    package mutating func beginStruct(_ id: Int16) {
        header(id, .structure)
        lastField.append(0)
    }

    /// A struct that is a list element (no header).
    package mutating func beginElement() { lastField.append(0) }

    package mutating func endStruct() {
        bytes.append(ThriftType.stop.rawValue)
        lastField.removeLast()
    }

    /// A list field's header: `count` elements of `type` follow.
    package mutating func list(_ id: Int16, of type: ThriftType, count: Int) {
        header(id, .list)
        listHeader(type, count: count)
    }

    package mutating func listHeader(_ type: ThriftType, count: Int) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            varint(UInt64(count))
        }
    }

    /// A list element.
    package mutating func elementI32(_ value: Int32) { zigzag(Int64(value)) }
    package mutating func elementString(_ value: String) {
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// Ends the outermost struct (the message).
    package mutating func finish() -> [UInt8] {
        bytes.append(ThriftType.stop.rawValue)
        return bytes
    }
}

/// Reads compact-protocol structs field by field; `skip` passes over what a reader does
/// not know (Parquet adds fields over time). Errors give the byte offset in the message.
package struct ThriftReader {
    package let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    /// Where `bytes` starts in the file, for messages.
    package let base: Int
    private var lastField: [Int16] = [0]
    private var depth = 0

    package init(_ bytes: UnsafeRawBufferPointer, base: Int = 0) {
        self.bytes = bytes
        self.base = base
        offset = 0
    }

    package func failure(_ what: String) -> GeoConvError {
        GeoConvError(
            .invalidInput, "the Parquet metadata is damaged: \(what)", at: SourceLocation(byteOffset: base + offset),
            hint: "check that the file is complete (a Parquet file ends with its footer and PAR1)")
    }

    package mutating func byte() throws(GeoConvError) -> UInt8 {
        guard offset < bytes.count else { throw failure("it ends inside a value") }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func varint() throws(GeoConvError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw failure("a varint runs over 64 bits") }
        }
    }

    package mutating func zigzag() throws(GeoConvError) -> Int64 {
        ByteEncoding.unzigzag(try varint())
    }

    /// The next field's id and type; `nil` at the struct's stop byte. A bool field's value
    /// is in its type (`boolTrue`/`boolFalse`).
    package mutating func field() throws(GeoConvError) -> (id: Int16, type: ThriftType)? {
        let b = try byte()
        guard let type = ThriftType(rawValue: b & 0x0F) else { throw failure("unknown field type \(b & 0x0F)") }
        if type == .stop { return nil }
        let delta = Int16(b >> 4)
        let id: Int16
        if delta == 0 {
            let raw = try zigzag()
            guard let narrow = Int16(exactly: raw) else { throw failure("field id \(raw)") }
            id = narrow
        } else {
            id = lastField[lastField.count - 1] &+ delta
        }
        lastField[lastField.count - 1] = id
        return (id, type)
    }

    package mutating func beginStruct() throws(GeoConvError) {
        depth += 1
        guard depth < 64 else { throw failure("structs nested more than 64 deep") }
        lastField.append(0)
    }

    package mutating func endStruct() {
        depth -= 1
        lastField.removeLast()
    }

    package mutating func i32() throws(GeoConvError) -> Int32 {
        let v = try zigzag()
        guard let n = Int32(exactly: v) else { throw failure("\(v) does not fit a 32-bit integer") }
        return n
    }

    package mutating func i64() throws(GeoConvError) -> Int64 { try zigzag() }

    package mutating func binary() throws(GeoConvError) -> [UInt8] {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else {
            throw failure("a string of \(length) bytes runs past the end")
        }
        let n = Int(length)
        defer { offset += n }
        return Array(bytes[offset..<(offset + n)])
    }

    package mutating func string() throws(GeoConvError) -> String { String(decoding: try binary(), as: UTF8.self) }

    /// A list's element type and count.
    package mutating func listHeader() throws(GeoConvError) -> (type: ThriftType, count: Int) {
        let b = try byte()
        guard let type = ThriftType(rawValue: b & 0x0F) else { throw failure("unknown list element type \(b & 0x0F)") }
        var count = Int(b >> 4)
        if count == 15 {
            let n = try varint()
            guard n <= UInt64(bytes.count - offset) else { throw failure("a list of \(n) elements runs past the end") }
            count = Int(n)
        }
        return (type, count)
    }

    /// Passes over a value of `type`.
    package mutating func skip(_ type: ThriftType) throws(GeoConvError) {
        switch type {
        case .stop, .boolTrue, .boolFalse: return
        case .byte: _ = try byte()
        case .i16, .i32, .i64: _ = try varint()
        case .double:
            guard offset + 8 <= bytes.count else { throw failure("it ends inside a double") }
            offset += 8
        case .binary: _ = try binary()
        case .list, .set:
            let (element, count) = try listHeader()
            for _ in 0..<count {
                if element == .boolTrue || element == .boolFalse { _ = try byte() } else { try skip(element) }
            }
        case .map:
            let count = try varint()
            guard count > 0 else { return }
            guard count <= UInt64(bytes.count - offset) else {
                throw failure("a map of \(count) entries runs past the end")
            }
            let types = try byte()
            guard let key = ThriftType(rawValue: types >> 4), let value = ThriftType(rawValue: types & 0x0F) else {
                throw failure("unknown map types")
            }
            for _ in 0..<count {
                try skip(key)
                try skip(value)
            }
        case .structure:
            try beginStruct()
            while let (_, fieldType) = try field() { try skip(fieldType) }
            endStruct()
        }
    }
}
