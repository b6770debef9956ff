import GeoConvCore

/// One FlatBuffer's bytes (FlatGeobuf's header, or one feature), where they start in the
/// input and the input's name (for errors). A class, so that the tables in it share it with
/// one reference, and the reader fills the same storage feature after feature. The bytes are
/// in storage of its own, read through a pointer: a read retains nothing (an array in a class
/// is retained and released around every read, dozens per feature).
final class FlatBuffer {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes it holds.
    private(set) var count = 0
    @exclusivity(unchecked) var base: Int
    let file: String

    init(bytes: [UInt8] = [], base: Int = 0, file: String) {
        capacity = max(bytes.count, 256)
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        self.base = base
        self.file = file
        bytes.withUnsafeBytes { append($0) }
    }

    deinit { storage.deallocate() }

    /// The bytes, valid until the buffer is emptied or filled again.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Empties the buffer, keeping its storage.
    func removeAll() { count = 0 }

    /// Appends `more` after the bytes held.
    func append(_ more: UnsafeRawBufferPointer) {
        guard let source = more.baseAddress, !more.isEmpty else { return }
        if count + more.count > capacity {
            let grown = max(count + more.count, capacity * 2)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            moved.copyMemory(from: storage, byteCount: count)
            storage.deallocate()
            storage = moved
            capacity = grown
        }
        (storage + count).copyMemory(from: source, byteCount: more.count)
        count += more.count
    }
}

/// A FlatBuffers table read in place from one buffer, every offset checked against the
/// buffer: a file whose offsets point outside is an error at its byte of the input, never a
/// read out of bounds. Written from the FlatBuffers binary format (tables, vtables, vectors,
/// strings; little-endian).
struct FlatBufferTable {
    /// The buffer the table is in.
    let buffer: FlatBuffer
    /// Where the table starts in the buffer.
    let position: Int
    /// Where its vtable starts, and the vtable's size in bytes.
    private let vtable: Int
    private let vtableSize: Int

    var bytes: UnsafeRawBufferPointer { buffer.bytes }
    /// Where the buffer starts in the input, and the input's name, for errors.
    var base: Int { buffer.base }
    var file: String { buffer.file }

    /// The root table of `buffer` (its first four bytes are the root's offset).
    init(root buffer: FlatBuffer) throws(GeoConvError) {
        let root = try FlatBufferBytes(buffer).uint32(at: 0)
        try self.init(buffer, position: root)
    }

    /// The table at `position` of `buffer`.
    init(_ buffer: FlatBuffer, position: Int) throws(GeoConvError) {
        let reader = FlatBufferBytes(buffer)
        let soffset = try reader.int32(at: position)
        let vtable = position - soffset
        let vtableSize = try reader.uint16(at: vtable)
        guard vtableSize >= 4, vtableSize % 2 == 0, vtable + vtableSize <= buffer.bytes.count else {
            throw reader.outOfRange("a table's field list", at: vtable)
        }
        self.buffer = buffer
        self.position = position
        self.vtable = vtable
        self.vtableSize = vtableSize
    }

    private var reader: FlatBufferBytes { FlatBufferBytes(buffer) }

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
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer.bytes[range]), as: UTF8.self)
    }

    /// Field `index` as a table; `nil` when absent.
    func table(_ index: Int) throws(GeoConvError) -> FlatBufferTable? {
        guard let at = try target(index) else { return nil }
        return try FlatBufferTable(buffer, position: at)
    }

    /// Field `index` as a vector of tables; empty when absent.
    func tables(_ index: Int) throws(GeoConvError) -> [FlatBufferTable] {
        guard let at = try target(index) else { return [] }
        let range = try vectorRange(at: at, elementSize: 4)
        var tables: [FlatBufferTable] = []
        tables.reserveCapacity(range.count / 4)
        for element in stride(from: range.lowerBound, to: range.upperBound, by: 4) {
            let position = element + (try reader.uint32(at: element))
            tables.append(try FlatBufferTable(buffer, position: position))
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
        guard count <= (buffer.bytes.count - start) / elementSize else { throw reader.outOfRange("a vector", at: at) }
        return start..<(start + count * elementSize)
    }

    /// The little-endian double at `at` (inside a range `vector` gave).
    func double(at: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
    }

    /// The little-endian unsigned 32-bit value at `at` (inside a range `vector` gave).
    func uint32(at: Int) -> Int {
        Int(UInt32(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }
}

/// Little-endian reads from a buffer, each checked, its errors placed in the input.
struct FlatBufferBytes {
    let buffer: FlatBuffer

    init(_ buffer: FlatBuffer) { self.buffer = buffer }

    var bytes: UnsafeRawBufferPointer { buffer.bytes }
    var base: Int { buffer.base }
    var file: String { buffer.file }

    func outOfRange(_ what: String, at offset: Int) -> GeoConvError {
        GeoConvError(
            .invalidInput, "\(what) points outside its FlatBuffer (\(bytes.count) bytes): the file is damaged",
            at: SourceLocation(file: file, line: nil, column: nil, byteOffset: base + max(0, offset)),
            hint: "the FlatGeobuf file is truncated or not written to the specification; write it again")
    }

    private func check(_ offset: Int, _ count: Int) throws(GeoConvError) {
        guard offset >= 0, offset <= buffer.bytes.count - count else { throw outOfRange("an offset", at: offset) }
    }

    func uint8(at offset: Int) throws(GeoConvError) -> UInt8 {
        try check(offset, 1)
        return buffer.bytes[offset]
    }

    func uint16(at offset: Int) throws(GeoConvError) -> Int {
        try check(offset, 2)
        return Int(UInt16(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }

    func uint32(at offset: Int) throws(GeoConvError) -> Int {
        try check(offset, 4)
        return Int(UInt32(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    func int32(at offset: Int) throws(GeoConvError) -> Int { Int(Int32(truncatingIfNeeded: try uint32(at: offset))) }

    func uint64(at offset: Int) throws(GeoConvError) -> UInt64 {
        try check(offset, 8)
        return UInt64(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
