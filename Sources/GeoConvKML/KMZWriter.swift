import Foundation
public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
import ZIPFoundation

/// Writes a KMZ: the KML from `KMLWriter`, zipped as `doc.kml`, the archive's first entry.
public struct KMZWriter: LossKeyedWriter {
    private let output: ByteWriter
    /// Where `doc.kml` and the archive are made (none when the archive goes nowhere).
    private let directory: TemporaryDirectory?
    private let kmlOutput: ByteWriter
    private var kml: KMLWriter
    private var files: EmbeddedFiles?
    private let diagnostics: DiagnosticLog
    /// Where the input's relative references resolve, and the local files found there that
    /// the features refer to (packed into the archive), in the order met.
    private let sourceDirectory: String?
    private var localFiles: [String] = []
    private var referencesSeen: Set<String> = []
    /// The largest local file packed.
    static let largestLocalFile = 256 << 20

    /// Creates a writer; relative icon and overlay paths found in `sourceDirectory` (the
    /// input's folder) are packed into the archive.
    public init(
        _ output: ByteWriter, options: KMLWriteOptions = KMLWriteOptions(), sourceDirectory: String? = nil,
        diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        self.output = output
        self.sourceDirectory = sourceDirectory
        // Into nowhere when the archive goes nowhere (`geoconv info` learning what KMZ loses).
        if output.discards {
            directory = nil
            kmlOutput = try ByteWriter(.discard)
        } else {
            let directory = try TemporaryDirectory(holding: ["doc.kml", "out.kmz"])
            self.directory = directory
            kmlOutput = try ByteWriter(.file(directory.url.appendingPathComponent("doc.kml").path))
        }
        var kmlOptions = options
        kmlOptions.topFoldersAsDocuments = true  // so that GDAL (QGIS) finds each layer's fields
        kml = KMLWriter(kmlOutput, options: kmlOptions, diagnostics: diagnostics)
        self.diagnostics = diagnostics
    }

    /// Keeps the input's embedded files (a KMZ's images) to put in the archive.
    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        files = header.embeddedFiles
        // (What KMZ cannot hold of the header is said as KMZ's, before its KML writer.)
        var kmlHeader = try header.droppingParts(unheldBy: .kmz, diagnostics: diagnostics)
        kmlHeader.embeddedFiles = nil
        try kml.begin(kmlHeader)
    }

    /// Into nowhere, KML's key: what KMZ adds (local files an icon names) comes of a style
    /// or a property KML asks for, which have none.
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        kml.lossKey(of: feature, shape: shape)
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try kml.write(feature)
        try packReferences(of: feature, reportingInto: diagnostics)
    }

    /// What KMZ adds to KML's writing: the local files its features name.
    public var checksBesideTwin: Bool { true }

    /// Notes the local files `feature` names, as `write` does after KML's writer.
    public mutating func checkBesideTwin(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) {
        try packReferences(of: feature, reportingInto: diagnostics)
    }

    /// Reports the input's embedded files the archive would drop, as `finish` does after
    /// KML's writer (into nowhere: nothing is packed).
    public mutating func finishBesideTwin(diagnostics: DiagnosticLog) throws(GeoConvError) {
        for path in files?.paths ?? [] where !Self.isSafeEntry(path) { try warnUnsafeEntry(path, into: diagnostics) }
    }

    /// Notes the files `feature` refers to by relative path (its icon, an overlay's image,
    /// its highlight icon), each the first time it is met. (Asked of every feature: nothing
    /// is made for one that names none.)
    private mutating func packReferences(of feature: Feature, reportingInto log: DiagnosticLog) throws(GeoConvError) {
        if let icon = feature.style.icon { try packOnce(icon, reportingInto: log) }
        let properties = feature.properties
        guard !properties.isEmpty else { return }
        if let icon = properties["icon"]?.stringValue { try packOnce(icon, reportingInto: log) }
        if let icon = properties[model: .highlightStyle]?["icon"]?.stringValue {
            try packOnce(icon, reportingInto: log)
        }
    }

    private mutating func packOnce(_ reference: String, reportingInto log: DiagnosticLog) throws(GeoConvError) {
        guard referencesSeen.insert(reference).inserted else { return }
        try pack(reference, reportingInto: log)
    }

    /// Notes a relative reference to pack from the source directory, or reports it when no
    /// file is there (a URL, an absolute path and a file the archive already holds are left).
    private mutating func pack(_ reference: String, reportingInto diagnostics: DiagnosticLog) throws(GeoConvError) {
        guard !reference.isEmpty, !reference.contains("://"), !reference.hasPrefix("/"), !reference.hasPrefix("data:"),
            !reference.hasPrefix("#"), files?.paths.contains(reference) != true
        else { return }
        guard let sourceDirectory else {
            try diagnostics.warn(
                KMLCode.kmzLocalFileMissing,
                "\"\(reference)\" is a relative path, and the input is not a file it could be found beside: the KMZ refers to a file it does not hold"
            )
            return
        }
        let path = sourceDirectory + "/" + reference
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            try diagnostics.warn(
                KMLCode.kmzLocalFileMissing,
                "\"\(reference)\" is not a file beside the input (\(path)): the KMZ refers to a file it does not hold",
                hint: "put the file there, or use a URL")
            return
        }
        guard Self.isSafeEntry(reference) else {
            try diagnostics.warn(
                KMLCode.kmzUnsafeEntryDropped,
                "the file \"\(reference)\" is outside the input's folder; it is not packed, and the KMZ refers to a file it does not hold"
            )
            return
        }
        guard Int(info.st_size) <= Self.largestLocalFile else {
            try diagnostics.warn(
                KMLCode.kmzLocalFileMissing,
                "\"\(reference)\" is larger than \(Self.largestLocalFile >> 20) MiB; it is not packed")
            return
        }
        localFiles.append(reference)
    }

    public mutating func finish() throws(GeoConvError) {
        try kml.finish()
        try kmlOutput.commit()
        guard let directory else {
            // The archive goes nowhere: only what it would drop is said.
            return try finishBesideTwin(diagnostics: diagnostics)
        }
        let archiveURL = directory.url.appendingPathComponent("out.kmz")
        do {
            let archive = try Archive(url: archiveURL, accessMode: .create)
            try archive.addEntry(with: "doc.kml", relativeTo: directory.url, compressionMethod: .deflate)
            for path in files?.paths ?? [] {
                guard let bytes = try files?.contents(of: path) else { continue }
                guard Self.isSafeEntry(path) else {
                    try warnUnsafeEntry(path, into: diagnostics)
                    continue
                }
                let data = Data(bytes)
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate
                ) {
                    position, size in data.subdata(in: Data.Index(position)..<Data.Index(position) + size)
                }
            }
            // The local files the features refer to, from beside the input.
            if let sourceDirectory {
                for path in localFiles {
                    try archive.addEntry(
                        with: path, relativeTo: URL(fileURLWithPath: sourceDirectory), compressionMethod: .deflate)
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

    func warnUnsafeEntry(_ path: String, into diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            KMLCode.kmzUnsafeEntryDropped, "the embedded file \"\(path)\" has an unsafe path and is not written")
    }
}
