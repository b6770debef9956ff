import GeoConvCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Parquet file opened for reading at random: its footer decoded, byte ranges read with
/// `pread`. Standard input and memory are copied to a temporary file first (the footer is
/// at the end).
final class ParquetFile {
    let name: String
    let metadata: ParquetFileMetadata
    let size: Int
    private let descriptor: Int32
    private let copy: SpooledInput?

    /// The largest footer accepted (Overture's are a few MB).
    static let maximumFooterBytes = 256 << 20

    init(_ input: ByteReader) throws(GeoConvError) {
        name = input.name
        copy = input.filePath == nil ? try SpooledInput(copying: input) : nil
        let path = input.filePath ?? copy?.path ?? ""
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw GeoConvError(.io, "cannot open '\(input.name)': \(String(cString: strerror(errno)))") }
        descriptor = fd
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw GeoConvError(.io, "cannot read '\(input.name)': \(String(cString: strerror(errno)))")
        }
        size = Int(status.st_size)
        do throws(GeoConvError) {
            metadata = try Self.footer(fd, size: size, name: input.name)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    private static func footer(_ fd: Int32, size: Int, name: String) throws(GeoConvError) -> ParquetFileMetadata {
        func damaged(_ what: String, at offset: Int) -> GeoConvError {
            GeoConvError(.invalidInput, "'\(name)' is not a Parquet file that can be read: \(what)", at: SourceLocation(file: name, byteOffset: offset),
                         hint: "a Parquet file starts and ends with PAR1; check that it is complete")
        }
        guard size >= 12 else { throw damaged("it has \(size) bytes", at: 0) }
        let head = try readRange(fd, 0, 4, name: name)
        guard head == Array("PAR1".utf8) else {
            if head == Array("PARE".utf8) { throw GeoConvError(.unsupported, "'\(name)' is an encrypted Parquet file", hint: "decrypt it first") }
            throw damaged("it does not start with PAR1", at: 0)
        }
        let tail = try readRange(fd, size - 8, 8, name: name)
        guard Array(tail[4...]) == Array("PAR1".utf8) else { throw damaged("it does not end with PAR1", at: size - 4) }
        let length = Int(UInt32(tail[0]) | UInt32(tail[1]) << 8 | UInt32(tail[2]) << 16 | UInt32(tail[3]) << 24)
        guard length <= size - 12, length <= maximumFooterBytes else { throw damaged("its footer length \(length) does not fit", at: size - 8) }
        let start = size - 8 - length
        let bytes = try readRange(fd, start, length, name: name)
        return try bytes.withBytes { buffer throws(GeoConvError) in
            do throws(GeoConvError) {
                return try ParquetFileMetadata(decoding: buffer, at: start)
            } catch {
                throw GeoConvError(error.code, error.message, at: SourceLocation(file: name, byteOffset: error.location?.byteOffset ?? start), hint: error.hint)
            }
        }
    }

    /// `count` bytes from `offset`.
    func read(_ offset: Int, _ count: Int) throws(GeoConvError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw GeoConvError(.invalidInput, "a column chunk (\(count) bytes at \(offset)) lies outside the file's \(size) bytes",
                               at: SourceLocation(file: name, byteOffset: max(0, offset)), hint: "check that the file is complete")
        }
        return try Self.readRange(descriptor, offset, count, name: name)
    }

    private static func readRange(_ fd: Int32, _ offset: Int, _ count: Int, name: String) throws(GeoConvError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { pread(fd, $0 + done, count - done, off_t(offset + done)) } ?? 0 }
            if n < 0 {
                if errno == EINTR { continue }
                throw GeoConvError(.io, "cannot read '\(name)': \(String(cString: strerror(errno)))")
            }
            if n == 0 { throw GeoConvError(.invalidInput, "'\(name)' ends at \(offset + done), inside what its footer describes", at: SourceLocation(file: name, byteOffset: offset + done)) }
            done += n
        }
        return bytes
    }
}

/// A leaf column of the schema: its path, levels and how its values read.
struct ParquetLeaf {
    var path: [String]
    var element: ParquetSchemaElement
    var maxDefinition: Int
    var maxRepetition: Int
    /// The index of the leaf among all leaves (its column chunk in each row group).
    var index: Int

    var dottedName: String { path.joined(separator: ".") }

    /// The leaves of a schema, depth first.
    static func leaves(of schema: [ParquetSchemaElement], file: String) throws(GeoConvError) -> [ParquetLeaf] {
        var leaves: [ParquetLeaf] = []
        var position = 1
        func walk(_ count: Int, path: [String], definition: Int, repetition: Int, depth: Int) throws(GeoConvError) {
            guard depth < 32 else { throw GeoConvError(.invalidInput, "the Parquet schema nests more than 32 deep", at: SourceLocation(file: file)) }
            for _ in 0..<count {
                guard position < schema.count else { throw GeoConvError(.invalidInput, "the Parquet schema has fewer elements than its groups say", at: SourceLocation(file: file)) }
                let element = schema[position]
                position += 1
                var def = definition, rep = repetition
                switch element.repetition {
                case .optional?: def += 1
                case .repeated?:
                    def += 1
                    rep += 1
                default: break
                }
                let children = Int(element.childCount ?? 0)
                if element.type == nil || children > 0 {
                    try walk(children, path: path + [element.name], definition: def, repetition: rep, depth: depth + 1)
                } else {
                    leaves.append(ParquetLeaf(path: path + [element.name], element: element, maxDefinition: def, maxRepetition: rep, index: leaves.count))
                }
            }
        }
        try walk(Int(schema[0].childCount ?? 0), path: [], definition: 0, repetition: 0, depth: 0)
        return leaves
    }
}
