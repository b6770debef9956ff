package import GeoConvCore
package import GeoConvIO

/// A Parquet file opened for reading at random: its footer decoded, byte ranges read again
/// from the input (`pread` for a file, a slice for memory). Standard input is copied to a
/// temporary file first (the footer is at the end).
package final class ParquetFile {
    package let name: String
    package let metadata: ParquetFileMetadata
    package let size: Int
    private let source: ByteReader
    private let copy: SpooledInput?

    /// The largest footer accepted (Overture's are a few MB).
    package static let maximumFooterBytes = 256 << 20

    package init(_ input: ByteReader) throws(GeoConvError) {
        name = input.name
        if input.readsRanges, input.totalBytes != nil {
            copy = nil
            source = input
        } else {
            let spooled = try SpooledInput(copying: input)
            copy = spooled
            source = try ByteReader(.file(spooled.path))
        }
        size = source.totalBytes ?? 0
        metadata = try Self.footer(source, size: size, name: input.name)
    }

    private static func footer(
        _ source: ByteReader, size: Int, name: String
    ) throws(GeoConvError) -> ParquetFileMetadata {
        func damaged(_ what: String, at offset: Int) -> GeoConvError {
            GeoConvError(
                .invalidInput, "'\(name)' is not a Parquet file that can be read: \(what)",
                at: SourceLocation(file: name, byteOffset: offset),
                hint: "a Parquet file starts and ends with PAR1; check that it is complete")
        }
        guard size >= 12 else { throw damaged("it has \(size) bytes", at: 0) }
        let head = try readRange(source, 0, 4, name: name)
        guard head == Array("PAR1".utf8) else {
            if head == Array("PARE".utf8) {
                throw GeoConvError(.unsupported, "'\(name)' is an encrypted Parquet file", hint: "decrypt it first")
            }
            throw damaged("it does not start with PAR1", at: 0)
        }
        let tail = try readRange(source, size - 8, 8, name: name)
        guard Array(tail[4...]) == Array("PAR1".utf8) else { throw damaged("it does not end with PAR1", at: size - 4) }
        let length = Int(UInt32(tail[0]) | UInt32(tail[1]) << 8 | UInt32(tail[2]) << 16 | UInt32(tail[3]) << 24)
        guard length <= size - 12, length <= maximumFooterBytes else {
            throw damaged("its footer length \(length) does not fit", at: size - 8)
        }
        let start = size - 8 - length
        let bytes = try readRange(source, start, length, name: name)
        return try bytes.withBytes { buffer throws(GeoConvError) in
            do throws(GeoConvError) {
                return try ParquetFileMetadata(decoding: buffer, at: start)
            } catch {
                throw GeoConvError(
                    error.code, error.message,
                    at: SourceLocation(file: name, byteOffset: error.location?.byteOffset ?? start), hint: error.hint)
            }
        }
    }

    /// `count` bytes from `offset`.
    package func read(_ offset: Int, _ count: Int) throws(GeoConvError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw GeoConvError(
                .invalidInput, "a column chunk (\(count) bytes at \(offset)) lies outside the file's \(size) bytes",
                at: SourceLocation(file: name, byteOffset: max(0, offset)), hint: "check that the file is complete")
        }
        return try Self.readRange(source, offset, count, name: name)
    }

    private static func readRange(
        _ source: ByteReader, _ offset: Int, _ count: Int, name: String
    ) throws(GeoConvError) -> [UInt8] {
        guard let bytes = try source.bytes(in: offset..<(offset + count)), bytes.count == count else {
            throw GeoConvError(
                .invalidInput, "'\(name)' ends before \(offset + count), inside what its footer describes",
                at: SourceLocation(file: name, byteOffset: offset))
        }
        return bytes
    }
}

/// A leaf column of the schema: its path, levels and how its values read.
package struct ParquetLeaf {
    package var path: [String]
    package var element: ParquetSchemaElement
    package var maxDefinition: Int
    package var maxRepetition: Int
    /// The definition level each node of `path` is defined at (the last is `maxDefinition`),
    /// whether it is repeated, and its annotation (a list's or map's group).
    package var definitions: [Int] = []
    package var repeated: [Bool] = []
    package var annotations: [ParquetAnnotation] = []
    /// The index of the leaf among all leaves (its column chunk in each row group).
    package var index: Int

    package var dottedName: String { path.joined(separator: ".") }

    /// For a column of Parquet's own GEOMETRY or GEOGRAPHY type, the CRS its type gives (empty
    /// when it gives none: OGC:CRS84); `nil` for other columns.
    package var nativeCRS: String? {
        guard case .geometry(let crs, _) = element.annotation else { return nil }
        return crs ?? ""
    }

    /// The leaves of a schema, depth first.
    package static func leaves(of schema: [ParquetSchemaElement], file: String) throws(GeoConvError) -> [ParquetLeaf] {
        var leaves: [ParquetLeaf] = []
        var position = 1
        var definitions: [Int] = []
        var repeated: [Bool] = []
        var annotations: [ParquetAnnotation] = []
        func walk(_ count: Int, path: [String], definition: Int, repetition: Int, depth: Int) throws(GeoConvError) {
            guard depth < 32 else {
                throw GeoConvError(
                    .invalidInput, "the Parquet schema nests more than 32 deep", at: SourceLocation(file: file))
            }
            guard count >= 0, count <= schema.count - position else {
                throw GeoConvError(
                    .invalidInput,
                    "a Parquet schema group says it has \(count) children; \(schema.count - position) elements follow",
                    at: SourceLocation(file: file),
                    hint: "check that the file is complete")
            }
            for _ in 0..<count {
                guard position < schema.count else {
                    throw GeoConvError(
                        .invalidInput, "the Parquet schema has fewer elements than its groups say",
                        at: SourceLocation(file: file))
                }
                let element = schema[position]
                position += 1
                var def = definition
                var rep = repetition
                switch element.repetition {
                case .optional?: def += 1
                case .repeated?:
                    def += 1
                    rep += 1
                default: break
                }
                let children = Int(element.childCount ?? 0)
                definitions.append(def)
                repeated.append(element.repetition == .repeated)
                annotations.append(element.annotation)
                defer {
                    definitions.removeLast()
                    repeated.removeLast()
                    annotations.removeLast()
                }
                if element.type == nil || children > 0 {
                    try walk(children, path: path + [element.name], definition: def, repetition: rep, depth: depth + 1)
                } else {
                    leaves.append(
                        ParquetLeaf(
                            path: path + [element.name], element: element, maxDefinition: def,
                            maxRepetition: rep,
                            definitions: definitions, repeated: repeated, annotations: annotations,
                            index: leaves.count))
                }
            }
        }
        try walk(Int(schema[0].childCount ?? 0), path: [], definition: 0, repetition: 0, depth: 0)
        return leaves
    }
}
