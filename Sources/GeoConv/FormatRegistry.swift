/// The formats geoconv knows, found by name, by file extension, or by content.
/// Each format's target defines its `FileFormat` (name, extensions, sniffer, reader, writer
/// and capabilities); this list is the one place that names them all.
public struct FormatRegistry: Sendable {
    /// The registered formats, in the order they are tried when sniffing.
    public private(set) var formats: [FileFormat]

    /// Creates a registry holding the given formats.
    public init(_ formats: [FileFormat]) { self.formats = formats }

    /// Every format this build of geoconv supports.
    public static let standard = FormatRegistry([
        .geoJSON, .geoJSONSequence, .kml, .kmz, .wkt, .wkbHex, .wkb, .encodedPolyline,
        .gpx,
    ])

    /// The format written to standard output when nothing names one and there is no input
    /// format to follow (clusters, for example).
    public static let defaultOutputFormat = FileFormat.geoJSON

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

extension ConversionOptions {
    /// These options with `srid` folded into `targetCRS` (`EPSG:srid`); a usage error when
    /// `--srid` and `--t-srs` name different CRSs.
    public func resolvingSRID() throws(GeoConvError) -> ConversionOptions {
        guard let srid else { return self }
        let target = "EPSG:\(srid)"
        var resolved = self
        if let given = targetCRS {
            let same = srid == 4326 ? Reproject.isWGS84(given) : given.uppercased() == target
            guard same else {
                throw GeoConvError(.usage, "--srid \(srid) and --t-srs \(given) name different CRSs",
                                   hint: "--srid N is the target CRS EPSG:N; give one of them")
            }
        }
        resolved.targetCRS = target
        return resolved
    }
}
