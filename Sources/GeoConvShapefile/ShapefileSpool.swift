#if Shapefile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoConvCore
import GeoConvIO

/// The properties of every shape written, in order, in a temporary file, read back once when
/// the DBFs are written (their columns are known only then). Binary, so that neither side
/// tokenizes JSON: per record its file and value count (varints), then per value its column
/// (the schema's index) and a tagged payload — null, false, true, a number's literal, a
/// string's UTF-8, or an array's or object's compact JSON. Without a path it only notes the
/// columns (`geoconv info`: the output is discarded).
struct ShapefileSpool {
    let path: String
    private var handle: FileHandleBox?
    private var buffer: [UInt8] = []

    private enum Tag: UInt8 { case null, `false`, `true`, number, string, nested }

    init(path: String?) throws(GeoConvError) {
        self.path = path ?? ""
        guard let path else { return }
        handle = try FileHandleBox(creating: path)
        buffer.reserveCapacity(1 << 20)
    }

    /// Adds a shape's record, `leading` then `properties` (no key in both), its columns noted
    /// in `schema`.
    mutating func append(
        file: Int, feature: Int, leading: [(key: String, value: JSONValue)], properties: JSONObject,
        schema: inout DBFSchema
    ) throws(GeoConvError) {
        guard handle != nil else {
            for (position, (key, value)) in leading.enumerated() {
                schema.note(key, value, file: file, feature: feature, position: position)
            }
            for (position, (key, value)) in properties.enumerated() {
                schema.note(key, value, file: file, feature: feature, position: leading.count + position)
            }
            return
        }
        Self.appendVarint(file, to: &buffer)
        Self.appendVarint(leading.count + properties.count, to: &buffer)
        var position = 0
        for (key, value) in leading {
            append(key, value, file: file, feature: feature, position: position, schema: &schema)
            position += 1
        }
        for (key, value) in properties {
            append(key, value, file: file, feature: feature, position: position, schema: &schema)
            position += 1
        }
        if buffer.count >= 1 << 20 { try flush() }
    }

    private mutating func append(
        _ key: String, _ value: JSONValue, file: Int, feature: Int, position: Int,
        schema: inout DBFSchema
    ) {
        Self.appendVarint(schema.note(key, value, file: file, feature: feature, position: position), to: &buffer)
        switch value {
        case .null: buffer.append(Tag.null.rawValue)
        case .bool(let flag): buffer.append(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .number(let number): appendBytes(number.literal, tag: .number)
        case .string(let text): appendBytes(text, tag: .string)
        case .array, .object:
            let json = JSONText.compact(value)
            buffer.append(Tag.nested.rawValue)
            Self.appendVarint(json.count, to: &buffer)
            buffer.append(contentsOf: json)
        }
    }

    private mutating func appendBytes(_ text: String, tag: Tag) {
        buffer.append(tag.rawValue)
        var text = text
        text.withUTF8 { bytes in
            Self.appendVarint(bytes.count, to: &buffer)
            buffer.append(contentsOf: bytes)
        }
    }

    private static func appendVarint(_ value: Int, to out: inout [UInt8]) {
        var value = UInt(value)
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// Closes the spool's file (a conversion that failed, or one that read it back).
    mutating func abandon() {
        handle?.closeFile()
    }

    mutating func flush() throws(GeoConvError) {
        try handle?.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each record in order: its file and its values by schema column
    /// (`nil` where the record has none; the array is reused from record to record).
    mutating func forEach(columns: Int, _ body: (Int, [JSONValue?]) throws(GeoConvError) -> Void) throws(GeoConvError) {
        try flush()
        handle?.closeFile()
        var input = SpoolInput(reader: try ByteReader(.file(path)))
        var values = [JSONValue?](repeating: nil, count: columns)
        var set: [Int] = []
        while try input.hasMore() {
            let file = try input.varint()
            let count = try input.varint()
            for _ in 0..<count {
                let column = try input.varint()
                guard column < columns, let tag = Tag(rawValue: try input.byte()) else { throw input.changed(path) }
                let value: JSONValue
                switch tag {
                case .null: value = .null
                case .false: value = .bool(false)
                case .true: value = .bool(true)
                case .number: value = .number(JSONNumber(uncheckedLiteral: try input.text()))
                case .string: value = .string(try input.text())
                case .nested:
                    guard let parsed = JSONText.parse(Array(try input.text().utf8), maximumDepth: 4096) else {
                        throw input.changed(path)
                    }
                    value = parsed
                }
                values[column] = value
                set.append(column)
            }
            try body(file, values)
            for column in set { values[column] = nil }
            set.removeAll(keepingCapacity: true)
        }
    }
}

/// The spool read back through a `ByteReader`, a chunk at a time.
private struct SpoolInput {
    let reader: ByteReader
    private var chunk: [UInt8] = []
    private var position = 0

    init(reader: ByteReader) { self.reader = reader }

    mutating func hasMore() throws(GeoConvError) -> Bool {
        if position < chunk.count { return true }
        chunk = [UInt8](repeating: 0, count: 1 << 20)
        let reader = reader
        let result = chunk.withUnsafeMutableBytes { buffer -> Result<Int, GeoConvError> in
            do throws(GeoConvError) { return .success(try reader.read(into: buffer)) } catch { return .failure(error) }
        }
        let count = try result.get()
        chunk.removeSubrange(count...)
        position = 0
        return count > 0
    }

    mutating func byte() throws(GeoConvError) -> UInt8 {
        guard try hasMore() else { throw changed(reader.name) }
        position += 1
        return chunk[position - 1]
    }

    mutating func varint() throws(GeoConvError) -> Int {
        var value = 0
        var shift = 0
        while true {
            let byte = try byte()
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            guard shift < 63 else { throw changed(reader.name) }
        }
    }

    mutating func text() throws(GeoConvError) -> String {
        let count = try varint()
        if position + count <= chunk.count {
            defer { position += count }
            return chunk.withUnsafeBufferPointer { String(decoding: $0[position..<position + count], as: UTF8.self) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            guard try hasMore() else { throw changed(reader.name) }
            let take = min(count - bytes.count, chunk.count - position)
            bytes.append(contentsOf: chunk[position..<position + take])
            position += take
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func changed(_ path: String) -> GeoConvError {
        GeoConvError(.io, "the shapefile writer's spool '\(path)' was changed while it was written")
    }
}

/// A file written with POSIX calls.
struct FileHandleBox {
    private var descriptor: Int32
    let path: String

    /// Creates (or empties) the file: private to the user by default (a spool), or readable as
    /// the umask allows (`0o666`: a file that becomes the output).
    init(creating path: String, permissions: mode_t = 0o600) throws(GeoConvError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            throw GeoConvError(
                .io, "cannot create '\(path)': \(String(cString: strerror(errno)))",
                hint: "set TMPDIR or check the output's folder")
        }
    }

    func writeAll(_ bytes: [UInt8]) throws(GeoConvError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw GeoConvError(
                    .io, "cannot write '\(path)': \(String(cString: strerror(errno)))", hint: "free some disk space")
            }
            done += n
        }
    }

    /// Writes `bytes` at `offset` (a header written last), leaving the file's end alone.
    func writeAll(_ bytes: [UInt8], at offset: Int) throws(GeoConvError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pwrite(descriptor, base + done, bytes.count - done, off_t(offset + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw GeoConvError(
                    .io, "cannot write '\(path)': \(String(cString: strerror(errno)))",
                    hint: "free some disk space")
            }
            done += n
        }
    }

    mutating func closeFile() {
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
        descriptor = -1
    }
}
#endif
