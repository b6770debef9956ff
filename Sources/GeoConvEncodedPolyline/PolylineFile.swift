public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

/// Options for reading and writing `.polyline` files.
public struct PolylineFileOptions: Hashable, Sendable {
    /// Decimals kept: 5 (Google, the default) or 6 (OSRM, Valhalla); 0…13 accepted.
    public var precision: Int
    /// Skip lines that do not decode, counting them as warnings, instead of failing.
    public var skipsInvalidLines: Bool

    /// Creates options.
    public init(precision: Int = EncodedPolyline.defaultPrecision, skipsInvalidLines: Bool = false) {
        self.precision = precision
        self.skipsInvalidLines = skipsInvalidLines
    }
}

/// Reads a `.polyline` file: one feature per line.
///
/// The line grammar (encoded polylines never contain spaces, tabs or parentheses, so these
/// can structure a line):
/// - `PATH` — a LineString, or a Point when the path has one position;
/// - `PATH PATH …` (separated by spaces or tabs) — a MultiLineString, or a MultiPoint when
///   every path has one position;
/// - `(OUTER HOLE HOLE …)` — a Polygon: the outer ring, then its holes;
/// - `(…) (…) …` — a MultiPolygon; any other mixture is a GeometryCollection.
/// Blank lines and lines starting with `#` are skipped. `\r\n` endings are accepted.
public struct PolylineFileReader: FeatureReader {
    private let lines: LineReader
    private let options: PolylineFileOptions
    private let diagnostics: DiagnosticLog
    /// Where the last feature's line starts.
    public private(set) var lastLocation: SourceLocation?

    /// Creates a reader over an input.
    public init(_ input: ByteReader, options: PolylineFileOptions = PolylineFileOptions(), diagnostics: DiagnosticLog) {
        lines = LineReader(input)
        self.options = options
        self.diagnostics = diagnostics
    }

    /// Input bytes consumed so far (for progress).
    public var bytesRead: Int { lines.bytesRead }

    /// A polyline file has no header: name, CRS and camera are absent (coordinates are WGS84).
    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader { DocumentHeader() }

    public mutating func next() throws(GeoConvError) -> Feature? {
        while let line = try lines.nextLine() {
            let location = SourceLocation(
                file: lines.name, line: lines.lineNumber, column: 1, byteOffset: lines.lineOffset)
            guard let first = line.firstIndex(where: { $0 != 32 && $0 != 9 }), line[first] != UInt8(ascii: "#") else {
                continue
            }
            do throws(GeoConvError) {
                let geometry = try PolylineLine.parse(line, precision: options.precision)
                lastLocation = location
                try checkRange(geometry, location: location)
                return Feature(geometry: geometry)
            } catch {
                var located = error
                let column = (error.location?.byteOffset ?? 0) + 1
                located.location = SourceLocation(
                    file: lines.name, line: lines.lineNumber, column: column,
                    byteOffset: lines.lineOffset + column - 1)
                guard options.skipsInvalidLines else { throw located }
                try diagnostics.skip(
                    PolylineCode.invalidLineSkipped,
                    "skipped a line that is not a valid encoded polyline: \(error.message)",
                    at: located.location)
            }
        }
        return nil
    }

    private func checkRange(_ geometry: Geometry, location: SourceLocation) throws(GeoConvError) {
        var outside: Coordinate?
        geometry.forEachCoordinate { c in if outside == nil, !c.isValidGeographic { outside = c } }
        guard let outside else { return }
        var message = "decoded coordinate \(outside) is outside latitude ±90 / longitude ±180"
        if options.precision < 6 {
            message +=
                "; was it encoded at precision \(options.precision + 1) (--polyline-precision \(options.precision + 1))?"
        }
        try diagnostics.warn(PolylineCode.outOfRange, message, at: location)
    }
}

/// Parsing and printing of one line of a `.polyline` file.
enum PolylineLine {
    enum Part {
        case path([Coordinate])
        case polygon(PolygonRings)
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>, precision: Int) throws(GeoConvError) -> Geometry {
        var parts: [Part] = []
        var index = 0
        let count = line.count
        var rings: [Path]? = nil
        var groupStart = 0
        while index < count {
            let byte = line[index]
            if byte == 32 || byte == 9 {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "(") {
                guard rings == nil else { throw syntax("a polygon cannot contain another '('", at: index) }
                rings = []
                groupStart = index
                index += 1
                continue
            }
            if byte == UInt8(ascii: ")") {
                guard let polygonRings = rings else { throw syntax("')' without a matching '('", at: index) }
                guard let outer = polygonRings.first else {
                    throw syntax("'()' holds no ring; a polygon needs an outer ring", at: groupStart)
                }
                parts.append(.polygon(PolygonRings(outer: outer, holes: Array(polygonRings.dropFirst()))))
                rings = nil
                index += 1
                continue
            }
            let start = index
            while index < count, line[index] != 32, line[index] != 9, line[index] != UInt8(ascii: "("),
                line[index] != UInt8(ascii: ")")
            {
                index += 1
            }
            var coordinates: [Coordinate] = []
            do throws(GeoConvError) {
                try EncodedPolyline.decode(
                    UnsafeBufferPointer(rebasing: line[start..<index]), precision: precision,
                    into: &coordinates)
            } catch {
                var shifted = error
                shifted.location = SourceLocation(byteOffset: start + (error.location?.byteOffset ?? 0))
                throw shifted
            }
            if rings != nil {
                rings?.append(Path(coordinates))
            } else {
                parts.append(.path(coordinates))
            }
        }
        if rings != nil { throw syntax("'(' at column \(groupStart + 1) is never closed", at: count) }
        return geometry(of: parts)
    }

    static func geometry(of parts: [Part]) -> Geometry {
        func single(_ part: Part) -> Geometry {
            switch part {
            case .path(let coordinates): EncodedPolyline.geometry(for: coordinates)
            case .polygon(let rings): .polygon(rings)
            }
        }
        if parts.count == 1 { return single(parts[0]) }
        var points: [Coordinate] = []
        var lines: [Path] = []
        var polygons: [PolygonRings] = []
        for part in parts {
            switch part {
            case .path(let coordinates) where coordinates.count == 1: points.append(coordinates[0])
            case .path(let coordinates): lines.append(Path(coordinates))
            case .polygon(let rings): polygons.append(rings)
            }
        }
        if points.count == parts.count { return .multiPoint(points) }
        if lines.count == parts.count { return .multiLineString(lines) }
        if polygons.count == parts.count { return .multiPolygon(polygons) }
        return .geometryCollection(parts.map(single))
    }

    static func syntax(_ message: String, at offset: Int) -> GeoConvError {
        GeoConvError(
            .invalidInput, message, at: SourceLocation(byteOffset: offset),
            hint: "a line is PATH, PATH PATH …, or (OUTER HOLE …) groups; see docs/formats/polyline.md")
    }
}

/// Writes a `.polyline` file: one line per feature, in the grammar `PolylineFileReader` reads.
///
/// Everything but the geometry's latitude and longitude is dropped, and each kind of loss
/// is reported once with a count: properties, names, styles, ids, altitudes, coordinates
/// rounded to the precision, circles, and features with no or an empty geometry.
public struct PolylineFileWriter: RecordAppendingWriter, LossKeyedWriter {
    private let output: ByteWriter
    private let options: PolylineFileOptions
    private let diagnostics: DiagnosticLog
    private var line: [UInt8] = []

    /// Creates a writer.
    public init(_ output: ByteWriter, options: PolylineFileOptions = PolylineFileOptions(), diagnostics: DiagnosticLog)
    {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        _ = try EncodedPolyline.scale(for: options.precision)
        _ = try header.droppingParts(unheldBy: .encodedPolyline, diagnostics: diagnostics)
        try header.reportEmbeddedFilesDropped(by: "a polyline file", diagnostics: diagnostics)
    }

    /// The features a polyline file holds (`FormatCapabilities.writtenOrder`): those with
    /// positions, a circle's left out, in order.
    public static func heldFeatures(_ geometries: [Geometry?]) -> [Int] {
        geometries.indices.filter { index in
            guard let geometry = geometries[index], !geometry.isEmpty else { return false }
            if case .circle = geometry { return false }
            return true
        }
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: "an encoded polyline", at: diagnostics.currentLocation)
        try reportDroppedAttributes(feature)
        guard let geometry = feature.geometry, !geometry.isEmpty else {
            try diagnostics.warn(
                PolylineCode.emptyGeometryDropped,
                "a feature without a geometry (or with an empty one) is dropped: a polyline line needs positions")
            return
        }
        line.removeAll(keepingCapacity: true)
        try append(geometry, topLevel: true)
        guard !line.isEmpty else {
            try diagnostics.warn(
                PolylineCode.emptyGeometryDropped,
                "a feature without a geometry (or with an empty one) is dropped: a polyline line needs positions")
            return
        }
        line.append(10)
        try output.write(line)
    }

    public mutating func finish() throws(GeoConvError) { try output.flush() }

    /// One polyline per line: lines are written apart.
    public func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)? {
        PolylineFileWriter(output, options: options, diagnostics: diagnostics)
    }

    public mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError) { try output.write(bytes) }

    private mutating func separate() { if !line.isEmpty && line.last != UInt8(ascii: "(") { line.append(32) } }

    private mutating func appendPath<C: Collection<Coordinate>>(_ coordinates: C) throws(GeoConvError) {
        guard !coordinates.isEmpty else { return }
        separate()
        try EncodedPolyline.encode(coordinates, precision: options.precision, into: &line)
        try checkRounding(coordinates)
    }

    private mutating func appendPolygon(_ rings: PolygonRings) throws(GeoConvError) {
        guard !rings.outer.isEmpty else { return }
        separate()
        line.append(UInt8(ascii: "("))
        for ring in rings.rings where !ring.isEmpty { try appendPath(ring) }
        line.append(UInt8(ascii: ")"))
    }

    private mutating func append(_ geometry: Geometry, topLevel: Bool) throws(GeoConvError) {
        switch geometry {
        case .point(let c): try appendPath(CollectionOfOne(c))
        case .lineString(let path):
            if path.count == 1 {
                try diagnostics.warn(
                    PolylineCode.onePointLine,
                    "a one-position LineString is written as a one-position path, which reads back as a Point")
            }
            try appendPath(path)
        case .polygon(let rings): try appendPolygon(rings)
        case .multiPoint(let points):
            if points.count == 1 {
                try diagnostics.warn(
                    PolylineCode.singlePartMulti,
                    "a one-part Multi geometry reads back as its single part")
            }
            for p in points { try appendPath(CollectionOfOne(p)) }
        case .multiLineString(let lines):
            if lines.count == 1 {
                try diagnostics.warn(
                    PolylineCode.singlePartMulti, "a one-part Multi geometry reads back as its single part")
            }
            for l in lines { try appendPath(l) }
        case .multiPolygon(let polygons):
            if polygons.count == 1 {
                try diagnostics.warn(
                    PolylineCode.singlePartMulti, "a one-part Multi geometry reads back as its single part")
            }
            for p in polygons { try appendPolygon(p) }
        case .geometryCollection(let members):
            // It reads back as itself only when its members are single Points, LineStrings
            // and Polygons of two kinds or more (the reader makes one kind a Multi geometry).
            let kinds = Set(members.map(\.kind))
            let singles = members.allSatisfy { member in
                switch member {
                case .point, .lineString, .polygon: true
                default: false
                }
            }
            if !topLevel || !singles || kinds.count <= 1 {
                try diagnostics.warn(
                    PolylineCode.collectionFlattened,
                    "a GeometryCollection is written as its parts and reads back as a Multi geometry or a flat collection"
                )
            }
            for member in members { try append(member, topLevel: false) }
        case .circle:
            try diagnostics.warn(
                PolylineCode.circleDropped,
                "a circle is dropped: encoded polylines cannot hold one",
                hint: "convert circles to polygons first (geoconv convert --circles polygon)")
        case .empty: break
        }
    }

    private func checkRounding<C: Collection<Coordinate>>(_ coordinates: C) throws(GeoConvError) {
        let factor = DecimalFormatter.powerOfTen(options.precision)
        for c in coordinates {
            if c.altitude != nil {
                try diagnostics.warn(
                    PolylineCode.altitudeDropped,
                    "altitudes are dropped: encoded polylines hold latitude and longitude only")
                break
            }
        }
        for c in coordinates {
            if Self.isRounded(c, factor: factor) {
                try diagnostics.warn(
                    PolylineCode.coordinatesRounded,
                    "coordinates are rounded to \(options.precision) decimals",
                    hint: "use --polyline-precision 6 to keep more")
                return
            }
        }
    }

    /// Whether `c` moves when written with `factor` (10 to the precision) steps per degree.
    private static func isRounded(_ c: Coordinate, factor: Double) -> Bool {
        let lat = (abs(c.latitude * factor) + 0.5).rounded(.down) / factor
        let lng = (abs(c.longitude * factor) + 0.5).rounded(.down) / factor
        return lat != abs(c.latitude) || lng != abs(c.longitude)
    }

    /// Into nowhere, what a feature without a geometry, with an empty one, or with a point
    /// within ±180°, ±90° loses follows from its shape and, for the point, whether it is
    /// rounded. Other geometries are written: their losses count parts and positions.
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard output.discards, shape.facts.contains(.isAllFinite) else { return nil }
        switch feature.geometry {
        case nil, .empty?: return shape.key()
        case .point(let c)? where shape.facts.contains(.isPlainPoint):
            let rounded = Self.isRounded(c, factor: DecimalFormatter.powerOfTen(options.precision))
            return shape.key(state: rounded ? 1 : 0, followsShape: false)
        default: return nil
        }
    }

    private func reportDroppedAttributes(_ feature: Feature) throws(GeoConvError) {
        if !feature.properties.isEmpty {
            try diagnostics.warn(
                PolylineCode.propertiesDropped, "feature properties are dropped: a polyline line holds only a geometry")
        }
        if feature.title != nil || feature.snippet != nil {
            try diagnostics.warn(
                PolylineCode.infoDropped,
                "feature names and descriptions are dropped: a polyline line holds only a geometry")
        }
        if !feature.style.isEmpty {
            try diagnostics.warn(
                PolylineCode.styleDropped, "feature styles are dropped: a polyline line holds only a geometry")
        }
        if feature.id != nil {
            try diagnostics.warn(
                PolylineCode.idDropped, "feature ids are dropped: a polyline line holds only a geometry")
        }
        if !feature.foreignMembers.isEmpty {
            try diagnostics.warn(
                PolylineCode.foreignMembersDropped, "foreign members are dropped: a polyline line holds only a geometry"
            )
        }
    }
}
