/// A FlatBuffer laid out front to back, from the FlatBuffers binary format: a table's vtable
/// before it, what its fields point to after it (every `uoffset` points forward, as the
/// format requires). The buffer starts with room for its size prefix (as FlatGeobuf frames
/// its header and each feature), and values are aligned from there, as the FlatBuffers
/// library aligns a size-prefixed buffer.
struct FlatBufferBuilder {
    /// A field's value.
    enum Value {
        case uint8(UInt8)
        case uint16(UInt16)
        case int32(Int32)
        case uint64(UInt64)
        case string(String)
        case bytes([UInt8])
        case doubles([Double])
        case uint32s([UInt32])
        case table(Table)
        case tables([Table])

        /// The bytes the value takes in its table (an offset for what is outside it).
        var inlineSize: Int {
            switch self {
            case .uint8: 1
            case .uint16: 2
            case .uint64: 8
            default: 4
            }
        }
    }

    /// A field: its number in the schema and its value.
    struct Field {
        var index: Int
        var value: Value
    }

    /// A table: its fields.
    struct Table {
        var fields: [Field] = []

        mutating func add(_ index: Int, _ value: Value) { fields.append(Field(index: index, value: value)) }
    }

    private var bytes: [UInt8] = []

    /// The size-prefixed buffer whose root is `root`.
    static func sizePrefixed(_ root: Table) -> [UInt8] {
        var bytes: [UInt8] = []
        sizePrefixed(root, into: &bytes)
        return bytes
    }

    /// Lays out the size-prefixed buffer whose root is `root` in `bytes`, replacing what it
    /// held (its storage reused from one feature to the next).
    static func sizePrefixed(_ root: Table, into bytes: inout [UInt8]) {
        var builder = FlatBufferBuilder()
        swap(&builder.bytes, &bytes)
        builder.bytes.removeAll(keepingCapacity: true)
        builder.bytes.append(contentsOf: repeatElement(0, count: 8))  // the size, the root's offset
        let start = builder.write(root)
        builder.patchOffset(at: 4, to: start)
        builder.set(UInt32(builder.bytes.count - 4), at: 0)
        swap(&builder.bytes, &bytes)
    }

    private mutating func align(_ size: Int) {
        while bytes.count % size != 0 { bytes.append(0) }
    }

    private mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (k, byte) in raw.enumerated() { bytes[offset + k] = byte }
        }
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Sets the `uoffset` at `offset` to point to `target` (after it).
    private mutating func patchOffset(at offset: Int, to target: Int) { set(UInt32(target - offset), at: offset) }

    /// Writes `table` (its vtable first), then what its fields point to; returns where the
    /// table starts.
    private mutating func write(_ table: Table) -> Int {
        // The table's inline layout: its vtable's offset, then the fields, widest first.
        let fields = table.fields
        var places = [Int](repeating: 0, count: fields.count)
        var size = 4
        var widest = 4
        var slots = 0
        for width in [8, 4, 2, 1] {
            for (slot, field) in fields.enumerated() where field.value.inlineSize == width {
                size = (size + width - 1) / width * width
                places[slot] = size
                size += width
                widest = max(widest, width)
                slots = max(slots, field.index + 1)
            }
        }
        align(2)
        let vtable = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 4 + 2 * slots))
        set(UInt16(4 + 2 * slots), at: vtable)
        set(UInt16(size), at: vtable + 2)
        for (slot, field) in fields.enumerated() { set(UInt16(places[slot]), at: vtable + 4 + 2 * field.index) }
        align(widest)
        let start = bytes.count
        append(Int32(start - vtable))
        bytes.append(contentsOf: repeatElement(0, count: size - 4))
        for (slot, field) in table.fields.enumerated() {
            let at = start + places[slot]
            switch field.value {
            case .uint8(let v): bytes[at] = v
            case .uint16(let v): set(v, at: at)
            case .int32(let v): set(v, at: at)
            case .uint64(let v): set(v, at: at)
            default: break
            }
        }
        for (slot, field) in table.fields.enumerated() {
            let at = start + places[slot]
            switch field.value {
            case .uint8, .uint16, .int32, .uint64: continue
            case .string(let text):
                align(4)
                patchOffset(at: at, to: bytes.count)
                append(UInt32(text.utf8.count))
                bytes.append(contentsOf: text.utf8)
                bytes.append(0)
            case .bytes(let values):
                align(4)
                patchOffset(at: at, to: bytes.count)
                append(UInt32(values.count))
                bytes.append(contentsOf: values)
            case .doubles(let values):
                alignVector(elementSize: 8)
                patchOffset(at: at, to: bytes.count)
                append(UInt32(values.count))
                for value in values { append(value.bitPattern) }
            case .uint32s(let values):
                align(4)
                patchOffset(at: at, to: bytes.count)
                append(UInt32(values.count))
                for value in values { append(value) }
            case .table(let child):
                let childStart = write(child)
                patchOffset(at: at, to: childStart)
            case .tables(let children):
                align(4)
                patchOffset(at: at, to: bytes.count)
                append(UInt32(children.count))
                let first = bytes.count
                bytes.append(contentsOf: repeatElement(0, count: 4 * children.count))
                for (k, child) in children.enumerated() {
                    let childStart = write(child)
                    patchOffset(at: first + 4 * k, to: childStart)
                }
            }
        }
        return start
    }

    /// Pads so that a vector's length (four bytes) is followed by elements on their alignment.
    private mutating func alignVector(elementSize: Int) {
        align(4)
        while (bytes.count + 4) % elementSize != 0 { bytes.append(0) }
    }
}
