import Foundation
public import GeoConvCore
import ZIPFoundation

/// Writes a KMZ: the KML from `KMLWriter`, zipped as `doc.kml`, the archive's first entry.
public struct KMZWriter: FeatureWriter {
    private let output: ByteWriter
    /// Where `doc.kml` and the archive are made (none when the archive goes nowhere).
    private let directory: TemporaryDirectory?
    private let kmlOutput: ByteWriter
    private var kml: KMLWriter
    private var files: EmbeddedFiles?
    private let diagnostics: DiagnosticLog

    /// Creates a writer.
    public init(_ output: ByteWriter, options: KMLWriteOptions = KMLWriteOptions(), diagnostics: DiagnosticLog) throws(GeoConvError) {
        self.output = output
        // Into nowhere when the archive goes nowhere (`geoconv info` learning what KMZ loses).
        if output.discards {
            directory = nil
            kmlOutput = try ByteWriter(.discard)
        } else {
            let directory = try TemporaryDirectory(holding: ["doc.kml", "out.kmz"])
            self.directory = directory
            kmlOutput = try ByteWriter(.file(directory.url.appendingPathComponent("doc.kml").path))
        }
        kml = KMLWriter(kmlOutput, options: options, diagnostics: diagnostics)
        self.diagnostics = diagnostics
    }

    /// Keeps the input's embedded files (a KMZ's images) to put in the archive.
    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        files = header.embeddedFiles
        var kmlHeader = header
        kmlHeader.embeddedFiles = nil
        try kml.begin(kmlHeader)
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) { try kml.write(feature) }

    public mutating func finish() throws(GeoConvError) {
        try kml.finish()
        try kmlOutput.commit()
        guard let directory else {
            // The archive goes nowhere: only what it would drop is said.
            for path in files?.paths ?? [] where !Self.isSafeEntry(path) { try warnUnsafeEntry(path) }
            return
        }
        let archiveURL = directory.url.appendingPathComponent("out.kmz")
        do {
            let archive = try Archive(url: archiveURL, accessMode: .create)
            try archive.addEntry(with: "doc.kml", relativeTo: directory.url, compressionMethod: .deflate)
            for path in files?.paths ?? [] {
                guard let bytes = try files?.contents(of: path) else { continue }
                guard Self.isSafeEntry(path) else {
                    try warnUnsafeEntry(path)
                    continue
                }
                let data = Data(bytes)
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) {
                    position, size in data.subdata(in: Data.Index(position)..<Data.Index(position) + size)
                }
            }
        } catch let error as GeoConvError {
            throw error
        } catch {
            throw GeoConvError(.io, "cannot create the KMZ archive: \(error)")
        }
        let reader = try ByteReader(.file(archiveURL.path))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try reader.read(into: chunk)
            if n == 0 { break }
            try output.write(Array(UnsafeRawBufferPointer(rebasing: chunk[..<n])))
        }
        try output.flush()
    }
}

extension KMZWriter {
    /// Whether an embedded file may be written under `path`: only plain relative paths,
    /// never one that climbs out of the archive or takes the place of `doc.kml`.
    static func isSafeEntry(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.hasPrefix("/") && !parts.contains("..") && path.lowercased() != "doc.kml" && path != "out.kmz"
    }

    func warnUnsafeEntry(_ path: String) throws(GeoConvError) {
        try diagnostics.warn("kmz.unsafe-entry-dropped", "the embedded file \"\(path)\" has an unsafe path and is not written")
    }
}

/// A temporary directory removed with its contents when no longer needed — or when a
/// signal ends the process (`TemporaryDirectories`, told the names of the files it will hold).
final class TemporaryDirectory {
    let url: URL
    private let slot: Int?

    init(holding files: [String]) throws(GeoConvError) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw GeoConvError(.io, "cannot create a temporary directory: \(error)", hint: "set TMPDIR to a writable directory")
        }
        slot = TemporaryDirectories.register(url.path, files: files)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
        if let slot { TemporaryDirectories.unregister(slot) }
    }
}
