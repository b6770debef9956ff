public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

/// Options for writing GeoJSON.
public struct GeoJSONWriteOptions: Hashable, Sendable {
    /// How records of a GeoJSON text sequence are delimited.
    public enum SequenceStyle: String, Hashable, Sendable {
        /// RFC 8142: each record starts with RS (0x1E) and ends with a newline (`.geojsons`).
        case recordSeparator
        /// One JSON text per line (`.geojsonl`, `.ndjson`).
        case newline
    }

    /// Decimals for coordinates; `nil` for the shortest form that reads back exactly.
    public var precision: Int?
    /// Indent the output (two spaces per level).
    public var pretty: Bool
    /// Write a `bbox` on every feature and on the collection, computed from the geometry.
    public var writesBoundingBoxes: Bool
    /// RFC 7946 output: exterior rings counter-clockwise, holes clockwise, geometries
    /// crossing the antimeridian cut. On by default.
    public var rfc7946: Bool
    /// Write a text sequence (one feature per record) instead of a FeatureCollection.
    public var sequence: SequenceStyle?

    /// Creates options.
    public init(
        precision: Int? = nil, pretty: Bool = false, writesBoundingBoxes: Bool = false, rfc7946: Bool = true,
        sequence: SequenceStyle? = nil
    ) {
        self.precision = precision
        self.pretty = pretty
        self.writesBoundingBoxes = writesBoundingBoxes
        self.rfc7946 = rfc7946
        self.sequence = sequence
    }
}

/// Writes GeoJSON (RFC 7946) as a FeatureCollection with one feature per line, or as a
/// GeoJSON text sequence, streaming.
///
/// Properties are written in their order with their literals; the model's title, snippet and
/// style are merged in as simplestyle / togeojson properties (`StyleProperties`); a circle is
/// written as its centre Point with a `geoconv:radius` property (and reported, since other
/// viewers show a point). Document name, description, camera and tile layers become
/// FeatureCollection members (and are reported as lost in a text sequence).
public struct GeoJSONWriter: RecordAppendingWriter, LossKeyedWriter {
    private let output: ByteWriter
    private let options: GeoJSONWriteOptions
    private let diagnostics: DiagnosticLog
    private var count = 0
    private var bounds: CoordinateBounds?
    private var buffer: [UInt8] = []
    /// The last style's properties (`MergedProperties.StyleMemo`).
    private var styleMemo = MergedProperties.StyleMemo()
    /// Whether the source draws edges the shorter way round (from the header).
    private var edgesTakeShorterWay = false
    /// Whether this writes records alone, each after a separator (`recordsWriter`).
    private var writesRecordsOnly = false

    /// Creates a writer.
    public init(_ output: ByteWriter, options: GeoJSONWriteOptions = GeoJSONWriteOptions(), diagnostics: DiagnosticLog)
    {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        buffer.reserveCapacity(1 << 16)
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        edgesTakeShorterWay = header.edgesTakeShorterWay
        if !options.rfc7946 {
            diagnostics.note(
                GeoJSONCode.notRFC7946,
                "geometry is written exactly as read (--keep-geometry): rings are not rewound and nothing is cut at the antimeridian, so the output is not RFC 7946"
            )
        }
        try header.reportEmbeddedFilesDropped(
            by: options.sequence == nil ? "GeoJSON" : "a GeoJSON text sequence", diagnostics: diagnostics)
        if let crs = header.crs {
            throw GeoConvError(
                .unsupported, "GeoJSON (RFC 7946) is always WGS84 longitude/latitude; the input is in \(crs)",
                hint: "reproject the input first")
        }
        if options.sequence != nil {
            _ = try header.droppingParts(unheldBy: .geoJSONSequence, diagnostics: diagnostics)
            return
        }
        var members: JSONObject = [:]
        if let name = header.name { members["name"] = .string(name) }
        if let description = header.description { members["description"] = .string(description) }
        if let camera = header.camera { members[.camera] = GeoJSONNames.json(camera) }
        if !header.tileLayers.isEmpty { members[.tileLayers] = GeoJSONNames.json(header.tileLayers) }
        for (key, value) in header.foreignMembers {
            // A computed bbox is written after the features, when it is known.
            if key == "bbox" && options.writesBoundingBoxes { continue }
            members[key] = value
        }
        var out: [UInt8] = Array(#"{"type":"FeatureCollection""#.utf8)
        for (key, value) in members {
            out.append(UInt8(ascii: ","))
            JSONOutput.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONOutput.append(value, to: &out)
        }
        if options.pretty {
            out = JSONOutput.prettyPrinted(out + [UInt8(ascii: "}")], indent: 0)
            out.removeLast(2)  // "\n}"
            out += Array(",\n  \"features\": [".utf8)
        } else {
            out += Array(#","features":["#.utf8)
        }
        try output.write(out)
    }

    /// Into nowhere, a feature loses nothing its shape does not say, but where its geometry
    /// is cut at the antimeridian (RFC 7946), which depends on its positions: of those, only
    /// points within ±180° get a key. Circles (drawn as their centres, perhaps cut) and
    /// collections (counting their circles) are written.
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard output.discards, shape.facts.contains(.isAllFinite) else { return nil }
        switch feature.geometry {
        case nil, .empty?: return shape.key()
        case .point? where shape.facts.contains(.isPlainPoint) || !options.rfc7946: return shape.key()
        case .geometryCollection?, .circle?: return nil
        case .some: return options.rfc7946 ? nil : shape.key()
        }
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(
            writing: options.sequence == nil ? "GeoJSON" : "a GeoJSON text sequence", at: diagnostics.currentLocation)
        buffer.removeAll(keepingCapacity: true)
        var properties = MergedProperties(feature, memo: &styleMemo)
        var geometry = feature.geometry
        if case .circle(let center, let radius)? = geometry {
            geometry = .point(center)
            properties.set(ModelKey.radius.name, GeoJSONNames.number(radius))
            try diagnostics.warn(
                GeoJSONCode.circleAsPoint,
                "a circle is written as its centre Point with a \"\(ModelKey.radius.name)\" property; other tools show a point",
                hint: "convert circles to polygons (--circles polygon) for other viewers")
        }
        if options.rfc7946, let g = geometry {
            if let cut = Antimeridian.cut(g, shorterWay: edgesTakeShorterWay || feature.style.geodesic == true) {
                geometry = cut
                try diagnostics.warn(
                    GeoJSONCode.antimeridianCut,
                    "a geometry crossing the antimeridian (or with longitudes beyond ±180°) is cut at ±180° and its parts moved into [-180, 180] (RFC 7946 §3.1.9)",
                    hint: "the parts cover the same ground; write KML or WKT to keep the geometry in one piece")
            }
        }
        if output.discards {
            // Bytes that go nowhere (`geoconv info` learning what would be lost): past this
            // point only a circle inside a collection is reported, which the geometry's text finds.
            if case .geometryCollection? = geometry, let geometry { try appendGeometry(geometry, extra: [:]) }
            count += 1
            return
        }
        buffer.append(literal: #"{"type":"Feature""#)
        if let id = feature.id {
            buffer.append(literal: #","id":"#)
            switch id {
            case .string(let s): JSONOutput.appendString(s, to: &buffer)
            case .number(let n): buffer.append(utf8Of: n.literal)
            }
        }
        if options.writesBoundingBoxes, let box = geometry?.bounds {
            buffer.append(literal: #","bbox":"#)
            appendBBox(box)
            bounds = bounds.map { $0.union(box) } ?? box
        }
        buffer.append(literal: #","properties":"#)
        if properties.isEmpty, feature.sourceForm.contains(.nullProperties) {
            buffer.append(literal: "null")  // as the input had it
        } else {
            JSONOutput.appendObject(properties, to: &buffer)
        }
        buffer.append(literal: #","geometry":"#)
        if let geometry {
            let extra = feature.foreignMembers["geometry"]?.objectValue ?? [:]
            try appendGeometry(geometry, extra: extra)
        } else {
            buffer.append(literal: "null")
        }
        for (key, value) in feature.foreignMembers where key != "geometry" {
            if key == "bbox" && options.writesBoundingBoxes { continue }
            buffer.append(UInt8(ascii: ","))
            JSONOutput.appendString(key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            JSONOutput.append(value, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
        if options.pretty { buffer = JSONOutput.prettyPrinted(buffer, indent: options.sequence == nil ? 2 : 0) }

        switch options.sequence {
        case .recordSeparator?:
            try output.write(byte: 0x1E)
            try output.write(buffer)
            try output.write(byte: 0x0A)
        case .newline?:
            try output.write(buffer)
            try output.write(byte: 0x0A)
        case nil:
            let first = count == 0 && !writesRecordsOnly
            switch (first, options.pretty) {
            case (true, false): try output.write(byte: 0x0A)
            case (false, false): try output.write(literal: ",\n")
            case (true, true): try output.write(literal: "\n    ")
            case (false, true): try output.write(literal: ",\n    ")
            }
            try output.write(buffer)
        }
        count += 1
    }

    public mutating func finish() throws(GeoConvError) {
        if options.sequence == nil && !writesRecordsOnly {
            var out: [UInt8] = Array((count > 0 ? "\n" : "").utf8)
            out += Array((options.pretty ? "  ]" : "]").utf8)
            if options.writesBoundingBoxes, let bounds {
                buffer.removeAll(keepingCapacity: true)
                appendBBox(bounds)
                out += Array((options.pretty ? ",\n  \"bbox\": " : #","bbox":"#).utf8) + buffer
            }
            out += Array((options.pretty ? "\n}\n" : "}\n").utf8)
            try output.write(out)
        }
        try output.flush()
    }

    // MARK: Records written elsewhere

    public func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)? {
        guard !options.writesBoundingBoxes else { return nil }  // the collection's bbox needs every feature here
        var writer = GeoJSONWriter(output, options: options, diagnostics: diagnostics)
        writer.edgesTakeShorterWay = edgesTakeShorterWay
        writer.writesRecordsOnly = true
        return writer
    }

    public mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError) {
        // A collection's first member has no comma before it; records come with one.
        if options.sequence == nil, self.count == 0, bytes.first == UInt8(ascii: ",") {
            try output.write(Array(bytes.dropFirst()))
        } else {
            try output.write(bytes)
        }
        self.count += count
    }

    // MARK: Geometry

    private mutating func appendBBox(_ box: CoordinateBounds) {
        buffer.append(UInt8(ascii: "["))
        number(box.west)
        buffer.append(UInt8(ascii: ","))
        number(box.south)
        buffer.append(UInt8(ascii: ","))
        number(box.east)
        buffer.append(UInt8(ascii: ","))
        number(box.north)
        buffer.append(UInt8(ascii: "]"))
    }

    @inline(__always) private mutating func number(_ value: Double) {
        DecimalFormatter.append(value, digits: options.precision, to: &buffer)
    }

    @inline(__always) private mutating func position(_ c: Coordinate) {
        buffer.append(UInt8(ascii: "["))
        DecimalFormatter.appendPosition(c, digits: options.precision, to: &buffer)
        buffer.append(UInt8(ascii: "]"))
    }

    private mutating func positions<C: Collection<Coordinate>>(_ coordinates: C) {
        buffer.append(UInt8(ascii: "["))
        var first = true
        for c in coordinates {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            position(c)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    private mutating func ring(_ path: Path, counterClockwise: Bool) {
        var ring = path.closed
        if options.rfc7946, ring.count >= 4, ring.isCounterClockwise != counterClockwise,
            ring.planarSignedDoubleArea != 0
        {
            ring = ring.reversedPath
        }
        positions(ring)
    }

    private mutating func polygon(_ rings: PolygonRings) {
        buffer.append(UInt8(ascii: "["))
        ring(rings.outer, counterClockwise: true)
        for hole in rings.holes {
            buffer.append(UInt8(ascii: ","))
            ring(hole, counterClockwise: false)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    private mutating func appendGeometry(_ geometry: Geometry, extra: JSONObject) throws(GeoConvError) {
        buffer.append(literal: #"{"type":""#)
        switch geometry {
        case .point(let c):
            buffer.append(literal: #"Point","coordinates":"#)
            position(c)
        case .lineString(let path):
            buffer.append(literal: #"LineString","coordinates":"#)
            positions(path)
        case .polygon(let rings):
            buffer.append(literal: #"Polygon","coordinates":"#)
            polygon(rings)
        case .multiPoint(let points):
            buffer.append(literal: #"MultiPoint","coordinates":"#)
            positions(points)
        case .multiLineString(let lines):
            buffer.append(literal: #"MultiLineString","coordinates":["#)
            for (i, line) in lines.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                positions(line)
            }
            buffer.append(UInt8(ascii: "]"))
        case .multiPolygon(let polygons):
            buffer.append(literal: #"MultiPolygon","coordinates":["#)
            for (i, rings) in polygons.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                polygon(rings)
            }
            buffer.append(UInt8(ascii: "]"))
        case .geometryCollection(let members):
            buffer.append(literal: #"GeometryCollection","geometries":["#)
            for (i, member) in members.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                try appendGeometry(member, extra: [:])
            }
            buffer.append(UInt8(ascii: "]"))
        case .circle(let center, let radius):
            // Only reachable inside a GeometryCollection: a feature-level circle became a Point above.
            try diagnostics.warn(
                GeoJSONCode.nestedCircleAsPoint,
                "a circle inside a GeometryCollection is written as its centre Point; its radius (\(radius) m) is lost",
                hint: "convert circles to polygons (--circles polygon)")
            buffer.append(literal: #"Point","coordinates":"#)
            position(center)
        case .empty(let kind):
            switch kind {
            case .geometryCollection: buffer.append(literal: #"GeometryCollection","geometries":["#)
            case .circle: buffer.append(literal: #"Point","coordinates":["#)
            default:
                buffer.append(contentsOf: kind.rawValue.utf8)
                buffer.append(literal: #"","coordinates":["#)
            }
            buffer.append(UInt8(ascii: "]"))
        }
        for (key, value) in extra {
            buffer.append(UInt8(ascii: ","))
            JSONOutput.appendString(key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            JSONOutput.append(value, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// The compact GeoJSON text of one geometry, as this writer would write it (used by
    /// `geoconv polyline decode --format geojson`).
    public static func text(
        for geometry: Geometry, options: GeoJSONWriteOptions = GeoJSONWriteOptions()
    ) throws(GeoConvError) -> String {
        var writer = GeoJSONWriter(try ByteWriter(.memory), options: options, diagnostics: DiagnosticLog())
        try writer.appendGeometry(geometry, extra: [:])
        return String(decoding: writer.buffer, as: UTF8.self)
    }
}
