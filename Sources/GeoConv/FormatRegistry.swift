/// The formats geoconv knows, found by name, by file extension, or by content.
/// Each format's target defines its `FileFormat` (name, extensions, sniffer, reader, writer
/// and capabilities); this list is the one place that names them all.
public struct FormatRegistry: Sendable {
    /// The registered formats, in the order they are tried when sniffing.
    public private(set) var formats: [FileFormat]

    /// Creates a registry holding the given formats.
    public init(_ formats: [FileFormat]) { self.formats = formats }

    /// Every format this build of geoconv supports (Shapefile with the `Shapefile` trait,
    /// GeoPackage with the `GeoPackage` trait).
    public static let standard: FormatRegistry = {
        var formats: [FileFormat] = [
            .geoJSON, .geoJSONSequence, .kml, .kmz, .wkt, .wkbHex, .wkb, .encodedPolyline,
            .gpx, .csv, .geoParquet, .flatGeobuf,
        ]
        #if Shapefile
        formats.append(.shapefile)
        #endif
        #if GeoPackage
        formats.append(.geoPackage)
        #endif
        return FormatRegistry(formats)
    }()

    /// The format written to standard output when nothing names one and there is no input
    /// format to follow (clusters, for example).
    public static let defaultOutputFormat = FileFormat.geoJSON

    /// The codes of the diagnostics the pipeline reports, beside the formats' own: its
    /// checks, reprojection, selection and clustering, the geometry transforms, the
    /// renderer, and what any writer loses as a whole.
    public static let pipelineDiagnosticCodes: [String] =
        PipelineCode.names + GeometryCode.names + RenderCode.names + WritingCode.names

    /// Every diagnostic code a conversion with these formats can report, each once: the
    /// formats' own, then the pipeline's (`docs/errors.md` lists them all).
    public var diagnosticCodes: [String] {
        var seen = Set<String>()
        return (formats.flatMap(\.diagnosticCodes) + Self.pipelineDiagnosticCodes).filter { seen.insert($0).inserted }
    }

    /// Adds a format (a later entry with the same name replaces an earlier one).
    public mutating func register(_ format: FileFormat) {
        formats.removeAll { $0.name == format.name }
        formats.append(format)
    }

    /// The format with this name or alias (case-insensitive), if any.
    public func format(named name: String) -> FileFormat? {
        formats.first { $0.isNamed(name) }
    }

    /// The format a path's extension names, if any.
    public func format(forPath path: String) -> FileFormat? {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        let ext = base[base.index(after: dot)...].lowercased()
        return formats.first { $0.extensions.contains(ext) }
    }

    /// The first format whose sniffer accepts these leading bytes.
    public func format(sniffing prefix: [UInt8]) -> FileFormat? {
        formats.first { $0.sniff(prefix) }
    }

    /// Names and extensions, for messages: `polyline (.polyline, .polyline6)`.
    public var listing: String {
        formats.map { f in f.name + " (" + f.extensions.map { "." + $0 }.joined(separator: ", ") + ")" }
            .joined(separator: ", ")
    }
}

extension FormatRegistry {
    /// `options` as the formats settle what their own options mean for the whole
    /// conversion (`FormatCapabilities.resolvesOptions`: WKT's `--srid N` is the target CRS
    /// `EPSG:N`), each format in turn.
    public func resolved(_ options: ConversionOptions) throws(GeoConvError) -> ConversionOptions {
        var resolved = options
        for format in formats { try format.capabilities.resolvesOptions?(&resolved) }
        return resolved
    }
}
