#if Shapefile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoConvCore

/// The properties of every shape written, in order, as lines of JSON in a temporary file:
/// `[file, {columns}]`. Written through a buffer; read back once when the DBFs are written.
struct ShapefileSpool {
    let path: String
    private var handle: FileHandleBox
    private var buffer: [UInt8] = []

    init(path: String) throws(GeoConvError) {
        self.path = path
        handle = try FileHandleBox(creating: path)
        buffer.reserveCapacity(1 << 20)
    }

    /// Adds a shape's record (its columns noted in `schema`).
    mutating func append(file: Int, record: JSONObject, schema: inout DBFSchema) throws(GeoConvError) {
        for (key, value) in record { schema.note(key, value, file: file) }
        buffer.append(contentsOf: JSONText.compact(.array([.number(JSONNumber(file)), .object(record)])))
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    mutating func flush() throws(GeoConvError) {
        try handle.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each record, in order.
    mutating func forEach(_ body: (Int, JSONObject) throws(GeoConvError) -> Void) throws(GeoConvError) {
        try flush()
        handle.closeFile()
        let reader = try ByteReader(.file(path))
        let lines = LineReader(reader, bufferSize: 1 << 20)
        while let line = try lines.nextLine() {
            guard case .array(let pair)? = JSONText.parse(Array(line), maximumDepth: 4096), pair.count == 2,
                  case .number(let file) = pair[0], let index = file.intValue, case .object(let record) = pair[1]
            else { throw GeoConvError(.io, "the shapefile writer's spool '\(path)' was changed while it was written") }
            try body(index, record)
        }
    }
}

/// A file written with POSIX calls.
struct FileHandleBox {
    private var descriptor: Int32
    let path: String

    init(creating path: String) throws(GeoConvError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw GeoConvError(.io, "cannot create '\(path)': \(String(cString: strerror(errno)))", hint: "set TMPDIR or check the output's folder")
        }
    }

    func writeAll(_ bytes: [UInt8]) throws(GeoConvError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw GeoConvError(.io, "cannot write '\(path)': \(String(cString: strerror(errno)))", hint: "free some disk space")
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
