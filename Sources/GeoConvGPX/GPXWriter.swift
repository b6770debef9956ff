public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO
internal import GeoConvXML

/// Options for writing GPX.
public struct GPXWriteOptions: Hashable, Sendable {
    /// Decimals for coordinates and elevations; `nil` for the shortest exact form.
    public var precision: Int?

    /// Creates options.
    public init(precision: Int? = nil) { self.precision = precision }
}

/// Writes GPX 1.1, valid against its schema, streaming.
///
/// - Point → `wpt`; MultiPoint → one `wpt` per point (a warning: the feature becomes
///   several); LineString → `rte` (times and all: `rtept` holds them), as GDAL writes it, so
///   that it reads back as the LineString it was; MultiLineString → `trk`, one `trkseg` per
///   line. An empty line or multi-line is a `rte` or `trk` with its fields and no points.
///   Other geometries (polygons, collections, none) are not written, with a warning.
/// - GPX puts waypoints before routes before tracks: routes and tracks wait in spools
///   (memory, then a temporary file) and follow the waypoints, so memory stays bounded; a
///   feature that moves ahead of others so is reported (`gpx.reordered`).
/// - The header's name and description, and `gpx:metadata`, make `metadata`.
/// - Title → `name`, snippet → `desc`, marker symbol → `sym`, `timestamp` → `time`, and the
///   GPX fields by their names (`cmt`, `src`, `links`, `type`, `number`, accuracy fields)
///   when their values are valid for GPX. Every other property — style properties
///   included — is written as GDAL writes fields: `<extensions><ogr:name>`, typed so that
///   geoconv reads it back exactly. `extensions` objects are written back as XML.
/// - Per-point `coordinateProperties` (`times`, fields) go on each point.
public struct GPXWriter: LossKeyedWriter {
    private let output: ByteWriter
    private let options: GPXWriteOptions
    private let diagnostics: DiagnosticLog
    private var buffer: [UInt8] = []
    private let routes = Spool()
    private let tracks = Spool()
    /// Whether a route or a track waits in the spools (a waypoint or route after it moves ahead).
    private var spooledRoute = false, spooledTrack = false
    /// Features given, and those GPX holds (the others are reported one by one).
    private var given = 0, kept = 0
    /// Whether the features of a shape have extensions or per-point values (`lossKey`).
    private var shapesExtended: [Int32: Bool] = [:]
    /// The last shape looked for in `shapesExtended` (features mostly follow one of theirs).
    private var lastShapeExtended: (shape: Int32, extended: Bool)?

    /// Creates a writer into `output`.
    public init(_ output: ByteWriter, options: GPXWriteOptions = GPXWriteOptions(), diagnostics: DiagnosticLog) {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        buffer.reserveCapacity(1 << 20)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        append(
            "<gpx version=\"1.1\" creator=\"geoconv\" xmlns=\"\(GPXNames.namespace)\" xmlns:ogr=\"\(GPXNames.ogrNamespace)\""
        )
        append(" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"")
        append(" xsi:schemaLocation=\"\(GPXNames.namespace) http://www.topografix.com/GPX/1/1/gpx.xsd\">\n")
        try writeMetadata(header)
        try flushIfFull()
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        given += 1
        guard try isWritten(feature.geometry) else { return }
        kept += 1
        try reportOrder(of: feature.geometry)
        if output.discards, feature.properties["extensions"] == nil, feature.properties["coordinateProperties"] == nil {
            // Bytes that go nowhere (`geoconv info` learning what would be lost): without
            // extensions or per-point values, only a longitude of 180 is left to report.
            // (One warning per position, as the writer's: each is a point of its own.)
            var at180 = 0
            feature.geometry?.forEachCoordinate { if $0.longitude == 180 { at180 += 1 } }
            for _ in 0..<at180 { try GPXShape.warnLongitude180(diagnostics) }
            return
        }
        var shape = GPXShape(feature: feature, precision: options.precision)
        switch feature.geometry {
        case .point(let c)?:
            try shape.point("wpt", c, perPoint: [:], properties: true, diagnostics: diagnostics)
            buffer.append(contentsOf: shape.out)
            buffer.append(0x0A)
        case .multiPoint(let points)?:
            for c in points {
                shape.out.removeAll(keepingCapacity: true)
                try shape.point("wpt", c, perPoint: [:], properties: true, diagnostics: diagnostics)
                buffer.append(contentsOf: shape.out)
                buffer.append(0x0A)
            }
        case .lineString(let path)?:
            try shape.line("rte", lines: [Array(path)], nested: false, diagnostics: diagnostics)
            shape.out.append(0x0A)
            try routes.append(shape.out)
        case .empty(.lineString)?:
            try shape.line("rte", lines: [], nested: false, diagnostics: diagnostics)
            shape.out.append(0x0A)
            try routes.append(shape.out)
        case .multiLineString(let lines)?:
            try shape.line("trk", lines: lines.map { Array($0) }, nested: true, diagnostics: diagnostics)
            shape.out.append(0x0A)
            try tracks.append(shape.out)
        case .empty(.multiLineString)?:
            try shape.line("trk", lines: [], nested: true, diagnostics: diagnostics)
            shape.out.append(0x0A)
            try tracks.append(shape.out)
        default:
            break
        }
        try flushIfFull()
    }

    /// Into nowhere, once a feature was kept (before, how many were given reaches a message),
    /// what a point loses follows from its shape, its longitude being 180 and what waits in
    /// the spools; a geometry GPX does not hold loses what its kind says. Points with
    /// extensions or per-point values, and lines (a longitude of 180 at any position), are
    /// written.
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard output.discards, kept > 0 else { return nil }
        switch feature.geometry {
        case .point(let c)?:
            guard c.longitude != 180 else { return nil }
            if shape.facts.contains(.hasProperties) {
                let extended: Bool
                if let last = lastShapeExtended, last.shape == shape.number {
                    extended = last.extended
                } else if let known = shapesExtended[shape.number] {
                    extended = known
                    lastShapeExtended = (shape.number, known)
                } else {
                    extended =
                        feature.properties["extensions"] != nil || feature.properties["coordinateProperties"] != nil
                    shapesExtended[shape.number] = extended
                    lastShapeExtended = (shape.number, extended)
                }
                if extended { return nil }
            }
            return shape.key(state: (spooledRoute ? 1 : 0) | (spooledTrack ? 2 : 0), followsShape: false)
        case .multiPoint?, .lineString?, .multiLineString?, .empty(.lineString)?, .empty(.multiLineString)?:
            return nil
        default:
            return shape.key()
        }
    }

    /// The GPX elements, in the order GPX puts them.
    enum Element: Int, CaseIterable {
        case waypoint, route, track
    }

    /// The element a geometry is written as; `nil` for one GPX does not hold.
    static func element(of geometry: Geometry?) -> Element? {
        switch geometry {
        case .point?, .multiPoint?: .waypoint
        case .lineString?, .empty(.lineString)?: .route
        case .multiLineString?, .empty(.multiLineString)?: .track
        default: nil
        }
    }

    /// Where GPX puts features with these geometries: the index of each feature written, in
    /// the output's order — waypoints (a MultiPoint's, one per point), then routes, then
    /// tracks, each in the features' order; a geometry GPX does not hold is left out.
    public static func order(of geometries: [Geometry?]) -> [Int] {
        var elements = [[Int]](repeating: [], count: Element.allCases.count)
        for (index, geometry) in geometries.enumerated() {
            guard let element = element(of: geometry) else { continue }
            let count = if case .multiPoint(let points)? = geometry { points.count } else { 1 }
            elements[element.rawValue] += repeatElement(index, count: count)
        }
        return elements.flatMap { $0 }
    }

    /// Reports a feature that GPX's order (waypoints, routes, tracks) moves ahead of features
    /// written before it, and notes what waits in the spools.
    private mutating func reportOrder(of geometry: Geometry?) throws(GeoConvError) {
        let movesAhead: Bool
        switch Self.element(of: geometry) {
        case .waypoint?:
            movesAhead = spooledRoute || spooledTrack
        case .route?:
            movesAhead = spooledTrack
            spooledRoute = true
        case .track?, nil:
            movesAhead = false
            spooledTrack = true
        }
        guard movesAhead else { return }
        try diagnostics.warn(
            GPXCode.reordered,
            "GPX puts waypoints before routes and routes before tracks: this feature is "
                + "written ahead of the routes or tracks that came before it",
            hint: "order the features as GPX does, or write GeoJSON or KML to keep their order")
    }

    /// Whether GPX holds `geometry` (reporting it when not, and a MultiPoint's split).
    private func isWritten(_ geometry: Geometry?) throws(GeoConvError) -> Bool {
        switch geometry {
        case .point?, .lineString?, .multiLineString?, .empty(.lineString)?, .empty(.multiLineString)?:
            return true
        case .multiPoint(let points)? where !points.isEmpty:
            try diagnostics.warn(
                GPXCode.multipointSplit,
                "a MultiPoint is written as \(points.count) waypoints with the same fields: "
                    + "it reads back as \(points.count) features",
                hint: "write GeoJSON or KML to keep it one feature")
            return true
        case let geometry:
            let kind = geometry.map { "a \($0.kind)" } ?? "a feature without geometry"
            try diagnostics.warn(
                GPXCode.geometryNotWritten, "\(kind) is not written: GPX holds waypoints, routes and tracks only",
                hint: "write GeoJSON or KML to keep it")
            return false
        }
    }

    public mutating func finish() throws(GeoConvError) {
        if given > 0, kept == 0 {
            // Once, as a conversion says it of a writer that was given nothing to write.
            try diagnostics.warn(
                WritingCode.outputEmpty,
                "none of the \(given) features read was written: the output holds no feature",
                hint: "GPX holds points and lines; write GeoJSON or KML to keep polygons")
        }
        try output.write(buffer)
        buffer.removeAll()
        try routes.drain(into: output)
        try tracks.drain(into: output)
        try output.write("</gpx>\n")
        try output.flush()
    }

    private mutating func flushIfFull() throws(GeoConvError) {
        guard buffer.count >= 1 << 20 else { return }
        try output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    /// `metadata`: name, desc, author, copyright, links, time, keywords, bounds, extensions.
    private mutating func writeMetadata(_ header: DocumentHeader) throws(GeoConvError) {
        var metadata = header.foreignMembers[GPXNames.metadataMember]?.objectValue ?? [:]
        _ = try header.droppingParts(unheldBy: .gpx, diagnostics: diagnostics)
        try header.reportEmbeddedFilesDropped(by: "GPX", diagnostics: diagnostics)
        guard header.name != nil || header.description != nil || !metadata.isEmpty else { return }
        var out: [UInt8] = []
        out.append(contentsOf: "<metadata>".utf8)
        if let name = header.name { GPXShape.element("name", name, to: &out) }
        if let description = header.description { GPXShape.element("desc", description, to: &out) }
        var dropped: [String] = []
        if let author = metadata.removeValue(forKey: "author") {
            // A name alone (GPX 1.0, other sources) is a person's name.
            dropped += GPXExtensions.write(
                author.stringValue.map { .object(["name": .string($0)]) } ?? author, named: "author", to: &out)
        }
        if let copyright = metadata["copyright"], copyright.objectValue?["@author"]?.stringValue != nil {
            dropped += GPXExtensions.write(copyright, named: "copyright", to: &out)
            metadata.removeValue(forKey: "copyright")
        }
        if let links = metadata.removeValue(forKey: "links") { GPXShape.links(links, to: &out) }
        if let time = metadata["time"]?.stringValue, GPXShape.isDateTime(time) {
            GPXShape.element("time", time, to: &out)
            metadata.removeValue(forKey: "time")
        }
        if let keywords = metadata["keywords"]?.stringValue {
            GPXShape.element("keywords", keywords, to: &out)
            metadata.removeValue(forKey: "keywords")
        }
        if let bounds = metadata.removeValue(forKey: "bounds")?.objectValue {
            out.append(contentsOf: "<bounds".utf8)
            for key in ["minlat", "minlon", "maxlat", "maxlon"] {
                out.append(contentsOf: " \(key)=\"".utf8)
                DecimalFormatter.appendShortest(bounds[key]?.doubleValue ?? 0, to: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(contentsOf: "/>".utf8)
        }
        let extensions = metadata.removeValue(forKey: "extensions")?.objectValue ?? [:]
        if !extensions.isEmpty || !metadata.isEmpty {
            out.append(contentsOf: "<extensions>".utf8)
            for (key, value) in extensions { dropped += GPXExtensions.write(value, named: key, to: &out) }
            for (key, value) in metadata { GPXShape.field(key, value, to: &out) }
            out.append(contentsOf: "</extensions>".utf8)
        }
        out.append(contentsOf: "</metadata>\n".utf8)
        buffer.append(contentsOf: out)
        for name in dropped {
            try diagnostics.warn(
                GPXCode.extensionNameDropped, "\"\(name)\" is not an XML name: that part of the metadata is not written"
            )
        }
    }
}
