import GeoConvCore

/// A FlatBuffers table read in place from one buffer (FlatGeobuf's header, or one feature),
/// every offset checked against the buffer: a file whose offsets point outside is an error at
/// the byte of the buffer's start in the input, never a read out of bounds. Written from the
/// FlatBuffers binary format (tables, vtables, vectors, strings; little-endian).
struct FlatBufferTable {
    /// The buffer the table is in.
    let bytes: [UInt8]
    /// Where the table starts in `bytes`.
    let position: Int
    /// Where its vtable starts, and the vtable's size in bytes.
    private let vtable: Int
    private let vtableSize: Int
    /// Where `bytes` starts in the input, and the input's name, for errors.
    let base: Int
    let file: String

    /// The root table of `bytes` (its first four bytes are the root's offset).
    init(root bytes: [UInt8], base: Int, file: String) throws(GeoConvError) {
        let reader = FlatBufferBytes(bytes: bytes, base: base, file: file)
        let root = try reader.uint32(at: 0)
        try self.init(bytes: bytes, position: root, base: base, file: file)
    }

    /// The table at `position` of `bytes`.
    init(bytes: [UInt8], position: Int, base: Int, file: String) throws(GeoConvError) {
        let reader = FlatBufferBytes(bytes: bytes, base: base, file: file)
        let soffset = try reader.int32(at: position)
        let vtable = position - soffset
        let vtableSize = try reader.uint16(at: vtable)
        guard vtableSize >= 4, vtableSize % 2 == 0, vtable + vtableSize <= bytes.count else {
            throw reader.outOfRange("a table's field list", at: vtable)
        }
        self.bytes = bytes
        self.position = position
        self.vtable = vtable
        self.vtableSize = vtableSize
        self.base = base
        self.file = file
    }

    private var reader: FlatBufferBytes { FlatBufferBytes(bytes: bytes, base: base, file: file) }

    /// Where field `index` is in `bytes`; `nil` when the table does not hold it.
    func fieldPosition(_ index: Int) throws(GeoConvError) -> Int? {
        let entry = 4 + 2 * index
        guard entry + 2 <= vtableSize else { return nil }
        let offset = try reader.uint16(at: vtable + entry)
        return offset == 0 ? nil : position + offset
    }

    /// Field `index` as a byte (booleans, enumerations), `fallback` when absent.
    func uint8(_ index: Int, default fallback: UInt8 = 0) throws(GeoConvError) -> UInt8 {
        guard let at = try fieldPosition(index) else { return fallback }
        return try reader.uint8(at: at)
    }

    func uint16(_ index: Int, default fallback: Int) throws(GeoConvError) -> Int {
        guard let at = try fieldPosition(index) else { return fallback }
        return try reader.uint16(at: at)
    }

    func int32(_ index: Int, default fallback: Int) throws(GeoConvError) -> Int {
        guard let at = try fieldPosition(index) else { return fallback }
        return try reader.int32(at: at)
    }

    func uint64(_ index: Int, default fallback: UInt64) throws(GeoConvError) -> UInt64 {
        guard let at = try fieldPosition(index) else { return fallback }
        return try reader.uint64(at: at)
    }

    /// Where the object field `index` refers to (a table, vector or string); `nil` when absent.
    private func target(_ index: Int) throws(GeoConvError) -> Int? {
        guard let at = try fieldPosition(index) else { return nil }
        return at + (try reader.uint32(at: at))
    }

    /// Field `index` as a string; `nil` when absent.
    func string(_ index: Int) throws(GeoConvError) -> String? {
        guard let at = try target(index) else { return nil }
        let range = try vectorRange(at: at, elementSize: 1)
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Field `index` as a table; `nil` when absent.
    func table(_ index: Int) throws(GeoConvError) -> FlatBufferTable? {
        guard let at = try target(index) else { return nil }
        return try FlatBufferTable(bytes: bytes, position: at, base: base, file: file)
    }

    /// Field `index` as a vector of tables; empty when absent.
    func tables(_ index: Int) throws(GeoConvError) -> [FlatBufferTable] {
        guard let at = try target(index) else { return [] }
        let range = try vectorRange(at: at, elementSize: 4)
        var tables: [FlatBufferTable] = []
        tables.reserveCapacity(range.count / 4)
        for element in stride(from: range.lowerBound, to: range.upperBound, by: 4) {
            let position = element + (try reader.uint32(at: element))
            tables.append(try FlatBufferTable(bytes: bytes, position: position, base: base, file: file))
        }
        return tables
    }

    /// The bytes of field `index`, a vector of `elementSize`-byte scalars; `nil` when absent.
    func vector(_ index: Int, elementSize: Int) throws(GeoConvError) -> Range<Int>? {
        guard let at = try target(index) else { return nil }
        return try vectorRange(at: at, elementSize: elementSize)
    }

    /// The elements of the vector at `at` (its length first), checked to lie in the buffer.
    private func vectorRange(at: Int, elementSize: Int) throws(GeoConvError) -> Range<Int> {
        let count = try reader.uint32(at: at)
        let start = at + 4
        guard count <= (bytes.count - start) / elementSize else { throw reader.outOfRange("a vector", at: at) }
        return start..<(start + count * elementSize)
    }

    /// The little-endian double at `at` (inside a range `vector` gave).
    func double(at: Int) -> Double {
        var bits: UInt64 = 0
        for shift in 0..<8 { bits |= UInt64(bytes[at + shift]) << (8 * shift) }
        return Double(bitPattern: bits)
    }

    /// The little-endian unsigned 32-bit value at `at` (inside a range `vector` gave).
    func uint32(at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
}

/// Little-endian reads from a buffer, each checked, its errors placed in the input.
struct FlatBufferBytes {
    let bytes: [UInt8]
    let base: Int
    let file: String

    func outOfRange(_ what: String, at offset: Int) -> GeoConvError {
        GeoConvError(
            .invalidInput, "\(what) points outside its FlatBuffer (\(bytes.count) bytes): the file is damaged",
            at: SourceLocation(file: file, line: nil, column: nil, byteOffset: base + max(0, offset)),
            hint: "the FlatGeobuf file is truncated or not written to the specification; write it again")
    }

    private func check(_ offset: Int, _ count: Int) throws(GeoConvError) {
        guard offset >= 0, offset <= bytes.count - count else { throw outOfRange("an offset", at: offset) }
    }

    func uint8(at offset: Int) throws(GeoConvError) -> UInt8 {
        try check(offset, 1)
        return bytes[offset]
    }

    func uint16(at offset: Int) throws(GeoConvError) -> Int {
        try check(offset, 2)
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    func uint32(at offset: Int) throws(GeoConvError) -> Int {
        try check(offset, 4)
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
            | Int(bytes[offset + 3]) << 24
    }

    func int32(at offset: Int) throws(GeoConvError) -> Int { Int(Int32(truncatingIfNeeded: try uint32(at: offset))) }

    func uint64(at offset: Int) throws(GeoConvError) -> UInt64 {
        try check(offset, 8)
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << (8 * shift) }
        return value
    }
}
