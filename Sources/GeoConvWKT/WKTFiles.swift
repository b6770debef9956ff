public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvGeometryEncoding
public import GeoConvIO

/// How a line-based geometry file encodes each line.
public enum GeometryLineEncoding: String, Hashable, Sendable {
    /// WKT or EWKT text.
    case wkt
    /// Hexadecimal WKB or EWKB.
    case wkbHex

    /// Whether a line, from its first non-blank byte, declares an SRID: EWKT's `SRID=`
    /// prefix, or EWKB's SRID flag (bit 0x20 of the geometry type's high byte).
    func declaresSRID(_ text: some Collection<UInt8>) -> Bool {
        switch self {
        case .wkt:
            return text.prefix(5).map { $0 | 0x20 } == Array("srid=".utf8)
        case .wkbHex:
            let hex = Array(text.prefix(10))
            guard hex.count == 10, let order = hexByte(hex[0], hex[1]) else { return false }
            let high = order == 1 ? hexByte(hex[8], hex[9]) : hexByte(hex[2], hex[3])
            return (high ?? 0) & 0x20 != 0
        }
    }

    /// How a file of these lines is cut for parallel reading: input whose first line
    /// declares an SRID stays on the two-thread pipeline (it is reprojected); the chunks of
    /// any other input are read as lines of a file without an SRID (`GeometryLineReader`).
    var lineRecords: LineRecords {
        LineRecords(declaresCRS: { self.startDeclaresSRID($0) })
    }

    /// Whether input starting with these bytes declares an SRID on its first non-blank line.
    func startDeclaresSRID(_ prefix: [UInt8]) -> Bool {
        guard let (_, index) = FormatSniffing.firstSignificantByte(prefix) else { return false }
        return declaresSRID(prefix[index...])
    }
}

/// Reads a file of one geometry per line (`.wkt`, `.wkbhex`); blank lines are skipped.
/// An EWKT/EWKB SRID other than 4326 becomes the document's CRS (`EPSG:n`); all lines must
/// agree with the file's first non-blank line: a line whose SRID differs is refused
/// (skipped with `skipsInvalid`). When that first line is itself skipped, the file has no
/// SRID unless the line declares one (then the next line read decides). M ordinates are
/// dropped and reported.
public struct GeometryLineReader: FeatureReader {
    private let lines: LineReader
    private let encoding: GeometryLineEncoding
    private let diagnostics: DiagnosticLog
    private let skipsInvalid: Bool
    /// The largest angle one segment of a linearised arc spans, in degrees.
    private let arcStep: Double
    private var pending: Feature?
    /// The file's SRID (`.some(nil)`: none, WGS84), `nil` until its first line decides.
    private var srid: Int??
    /// Whether a UTF-8 byte order mark before the first line is skipped (the file's start).
    private var skipsByteOrderMark: Bool
    /// Where the last feature's line starts.
    public private(set) var lastLocation: SourceLocation?

    /// Creates a reader; curves are linearised with arcs cut into segments of at most
    /// `arcStep` degrees. Lines cut from a file whose first line declares no SRID (a
    /// parallel chunk) refuse every SRID other than 4326, as the whole file's reader does.
    public init(
        _ input: ByteReader, encoding: GeometryLineEncoding, skipsInvalid: Bool = false,
        arcStep: Double = WKTParser.defaultArcStep, diagnostics: DiagnosticLog
    ) {
        if let start = input.enclosingInputStart, !encoding.startDeclaresSRID(start) { srid = .some(nil) }
        skipsByteOrderMark = input.startsInput
        lines = LineReader(input)
        self.encoding = encoding
        self.diagnostics = diagnostics
        self.skipsInvalid = skipsInvalid
        self.arcStep = arcStep
    }

    /// Reports curves made into straight segments.
    private func warnLinearised(at location: SourceLocation) throws(GeoConvError) {
        try GeometryLineReader.warnLinearised(arcStep: arcStep, at: location, diagnostics: diagnostics)
    }

    static func warnEmptyPoints(at location: SourceLocation, diagnostics: DiagnosticLog) throws(GeoConvError) {
        try diagnostics.warn(
            WKTCode.wktEmptyPointDropped,
            "an EMPTY point inside a MULTIPOINT is dropped: the model's MultiPoint holds positions only",
            at: location)
    }

    static func warnLinearised(
        arcStep: Double, at location: SourceLocation, diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        try diagnostics.warn(
            WKTCode.wktCurveLinearised,
            "curves (CIRCULARSTRING, COMPOUNDCURVE, CURVEPOLYGON, MULTICURVE, MULTISURFACE) are linearised: arcs become segments of at most \(DecimalFormatter.shortest(arcStep))°",
            at: location, hint: "set the segment angle with --arc-step DEGREES (GDAL's OGR_ARC_STEPSIZE)")
    }

    /// Whether a polygon ring anywhere in `geometry` does not end where it starts.
    static func hasUnclosedRing(_ geometry: Geometry?) -> Bool {
        switch geometry {
        case .polygon(let rings)?: rings.rings.contains { !$0.isClosed }
        case .multiPolygon(let polygons)?: polygons.contains { $0.rings.contains { !$0.isClosed } }
        case .geometryCollection(let members)?: members.contains { hasUnclosedRing($0) }
        default: false
        }
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        pending = try readLine()
        var header = DocumentHeader()
        if let srid = srid ?? nil, srid != 4326 { header.crs = "EPSG:\(srid)" }
        return header
    }

    public mutating func next() throws(GeoConvError) -> Feature? {
        if let feature = pending {
            pending = nil
            return feature
        }
        return try readLine()
    }

    private mutating func readLine() throws(GeoConvError) -> Feature? {
        while var line = try lines.nextLine() {
            // A byte order mark is not part of the line: columns count from after it (as
            // editors show them), byte offsets from the file's start.
            var lineOffset = lines.lineOffset
            if skipsByteOrderMark {
                skipsByteOrderMark = false
                if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                    line = UnsafeBufferPointer(rebasing: line[3...])
                    lineOffset += 3
                }
            }
            var start = 0
            var end = line.count
            while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
            while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
            if start == end { continue }
            let location = SourceLocation(
                file: lines.name, line: lines.lineNumber, column: start + 1, byteOffset: lineOffset + start)
            let text = UnsafeBufferPointer(rebasing: line[start..<end])
            do throws(GeoConvError) {
                let parsed: WKTGeometry
                let droppedM: Bool
                switch encoding {
                case .wkt:
                    let result = try WKTParser.parse(text, arcStep: arcStep)
                    parsed = result.0
                    droppedM = result.droppedM
                    if result.linearisedCurves > 0 { try warnLinearised(at: location) }
                    if result.droppedEmptyPoints > 0 {
                        try GeometryLineReader.warnEmptyPoints(at: location, diagnostics: diagnostics)
                    }
                    if result.unclosedRing {
                        try diagnostics.warn(
                            WKTCode.wktUnclosedRing,
                            "a polygon ring's first and last positions differ; it is closed on writing",
                            at: location)
                    }
                case .wkbHex:
                    let result = try WKB.read(hex: text, arcStep: arcStep)
                    (parsed, droppedM) = (result.0, result.droppedM)
                    if result.linearisedCurves > 0 { try warnLinearised(at: location) }
                    if result.droppedEmptyPoints > 0 {
                        try GeometryLineReader.warnEmptyPoints(at: location, diagnostics: diagnostics)
                    }
                    if GeometryLineReader.hasUnclosedRing(parsed.geometry) {
                        try diagnostics.warn(
                            WKTCode.wktUnclosedRing,
                            "a polygon ring's first and last positions differ; it is closed on writing",
                            at: location)
                    }
                }
                if droppedM {
                    try diagnostics.warn(
                        WKTCode.wktMDropped, "M ordinates are dropped: the model keeps X, Y and Z", at: location)
                }
                try checkSRID(parsed.srid, at: location)
                lastLocation = location
                return Feature(geometry: parsed.geometry)
            } catch {
                var located = error
                if error.code == .invalidInput || error.code == .unsupported || error.code == .limitExceeded {
                    let column = start + (error.location?.byteOffset ?? 0) + 1
                    located.location = SourceLocation(
                        file: lines.name, line: lines.lineNumber, column: column,
                        byteOffset: lineOffset + column - 1)
                }
                guard skipsInvalid, located.code != .usage else { throw located }
                // A skipped first line decides the file's SRID when it declares none, as the
                // parallel reader's cut does (`lineRecords`).
                if srid == nil, !encoding.declaresSRID(text) { srid = .some(nil) }
                try diagnostics.skip(
                    WKTCode.wktInvalidLineSkipped, "skipped a line: \(located.message)", at: located.location)
            }
        }
        return nil
    }

    private mutating func checkSRID(_ raw: Int?, at location: SourceLocation) throws(GeoConvError) {
        let value = raw == 4326 ? nil : raw  // WGS84 longitude/latitude, the default
        guard let known = srid else {
            srid = .some(value)
            return
        }
        if known != value {
            throw GeoConvError(
                .unsupported,
                "this line's SRID (\(value.map(String.init) ?? "none")) differs from the file's (\(known.map(String.init) ?? "none"))",
                at: location, hint: "split the file by SRID, or reproject the geometries first")
        }
    }
}

/// Reads a `.wkb` file: one binary WKB or EWKB geometry.
public struct WKBFileReader: FeatureReader {
    private var feature: Feature?
    private var header = DocumentHeader()
    /// The file.
    public private(set) var lastLocation: SourceLocation?

    /// Reads the whole (single-geometry) file.
    public init(
        _ input: ByteReader, arcStep: Double = WKTParser.defaultArcStep, diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        let bytes = try input.readAll(limit: 1 << 30)
        let parsed: WKB.Result
        do throws(GeoConvError) {
            parsed = try bytes.withUnsafeBytes { raw -> Result<WKB.Result, GeoConvError> in
                do throws(GeoConvError) { return .success(try WKB.read(raw, arcStep: arcStep)) } catch {
                    return .failure(error)
                }
            }.get()
        } catch {
            throw error.inFile(input.name)
        }
        if parsed.droppedM {
            try diagnostics.warn(
                WKTCode.wktMDropped, "M ordinates are dropped: the model keeps X, Y and Z",
                at: SourceLocation(file: input.name))
        }
        if parsed.droppedEmptyPoints > 0 {
            try GeometryLineReader.warnEmptyPoints(at: SourceLocation(file: input.name), diagnostics: diagnostics)
        }
        if parsed.linearisedCurves > 0 {
            try GeometryLineReader.warnLinearised(
                arcStep: arcStep, at: SourceLocation(file: input.name), diagnostics: diagnostics)
        }
        if let srid = parsed.0.srid, srid != 4326 { header.crs = "EPSG:\(srid)" }
        feature = Feature(geometry: parsed.0.geometry)
        lastLocation = SourceLocation(file: input.name, byteOffset: 0)
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader { header }

    public mutating func next() throws(GeoConvError) -> Feature? {
        defer { feature = nil }
        return feature
    }
}

/// Writes geometries: one WKT or hex-WKB line per feature, or a single binary WKB.
///
/// Everything but the geometry is dropped and reported once per kind (properties, names,
/// styles, ids); features without a geometry are skipped and reported. A document CRS
/// `EPSG:n` (or `--srid`) is written as the EWKT/EWKB `SRID=n` prefix.
public struct GeometryWriter: RecordAppendingWriter, LossKeyedWriter {
    /// The features a geometry file holds (`FormatCapabilities.writtenOrder`): those with a
    /// geometry, in order.
    public static func heldFeatures(_ geometries: [Geometry?]) -> [Int] {
        geometries.indices.filter { geometries[$0] != nil }
    }

    /// The output form.
    public enum Form: Hashable, Sendable {
        case wkt, wkbHex, wkbBinary
    }

    private var output: ByteWriter
    private let form: Form
    /// The form's name in messages: "WKT" or "WKB".
    private var formName: String { form == .wkt ? "WKT" : "WKB" }

    /// The writer's warning codes, under the form's prefix (`wkt.`, `wkb.`).
    private struct Codes {
        let sridDropped, attributesDropped, nullGeometrySkipped, missingZAsZero: WKTCode

        static let wkt = Codes(
            sridDropped: WKTCode.wktSRIDDropped,
            attributesDropped: WKTCode.wktAttributesDropped,
            nullGeometrySkipped: WKTCode.wktNullGeometrySkipped,
            missingZAsZero: WKTCode.wktMissingZAsZero)
        static let wkb = Codes(
            sridDropped: WKTCode.wkbSRIDDropped,
            attributesDropped: WKTCode.wkbAttributesDropped,
            nullGeometrySkipped: WKTCode.wkbNullGeometrySkipped,
            missingZAsZero: WKTCode.wkbMissingZAsZero)
    }

    private let codes: Codes
    private let writer: WKTWriter
    private var diagnostics: DiagnosticLog
    private var srid: Int?
    private var written = 0
    private var buffer: [UInt8] = []

    /// Creates a writer; `srid` is the SRID the data must be in (written even when 4326);
    /// without it the header's CRS gives the SRID.
    public init(_ output: ByteWriter, form: Form, precision: Int? = nil, srid: Int? = nil, diagnostics: DiagnosticLog) {
        self.output = output
        self.form = form
        codes = form == .wkt ? .wkt : .wkb
        writer = WKTWriter(precision: precision)
        self.diagnostics = diagnostics
        self.srid = srid
    }

    public mutating func begin(_ header: DocumentHeader) throws(GeoConvError) {
        // The SRID says what CRS the coordinates are in: the header's, never a bare label.
        let dataSRID: Int?
        if let crs = header.crs {
            guard let code = GeometryWriter.epsgCode(crs) else {
                if let srid {
                    throw GeoConvError(
                        .unsupported, "the data is in \(crs), not SRID \(srid)",
                        hint: "reproject with --t-srs EPSG:\(srid) (or --srid alone), or drop --srid")
                }
                try diagnostics.warn(
                    codes.sridDropped,
                    "the data's CRS (\(crs)) has no EPSG code, so no SRID is written; "
                        + "the coordinates stay in that CRS",
                    hint: "reproject to an EPSG CRS with --t-srs EPSG:n to write its SRID")
                return try beginDocument(header)
            }
            dataSRID = code
        } else {
            dataSRID = nil  // WGS84 longitude/latitude
        }
        if let srid {
            guard srid == (dataSRID ?? 4326) else {
                throw GeoConvError(
                    .unsupported,
                    "the data is in SRID \(dataSRID ?? 4326), not SRID \(srid); an SRID is never put on data in another CRS",
                    hint: "reproject with --t-srs EPSG:\(srid), or drop --srid")
            }
        } else {
            srid = dataSRID
        }
        try beginDocument(header)
    }

    /// The EPSG code of `EPSG:n`, `urn:ogc:def:crs:EPSG::n` or `http://www.opengis.net/def/crs/EPSG/0/n`.
    static func epsgCode(_ crs: String) -> Int? {
        let upper = crs.uppercased()
        let digits = upper.split(whereSeparator: { $0 == ":" || $0 == "/" }).last.map(String.init) ?? ""
        guard upper.contains("EPSG"), let code = Int(digits), code > 0 else { return nil }
        return code
    }

    private mutating func beginDocument(_ header: DocumentHeader) throws(GeoConvError) {
        try header.reportEmbeddedFilesDropped(by: formName, diagnostics: diagnostics)
        let format: FileFormat =
            switch form {
            case .wkt: .wkt
            case .wkbHex: .wkbHex
            case .wkbBinary: .wkb
            }
        _ = try header.droppingParts(unheldBy: format, diagnostics: diagnostics)
    }

    public mutating func write(_ feature: Feature) throws(GeoConvError) {
        try feature.requireFinite(writing: formName, at: diagnostics.currentLocation)
        if !feature.properties.isEmpty || feature.title != nil || feature.snippet != nil || !feature.style.isEmpty
            || feature.id != nil
        {
            try diagnostics.warn(
                codes.attributesDropped,
                "feature properties, names, styles and ids are dropped: "
                    + "\(formName) holds geometries only")
        }
        guard let geometry = feature.geometry else {
            try diagnostics.warn(codes.nullGeometrySkipped, "a feature without a geometry is skipped")
            return
        }
        if geometry.mixesAltitudes {
            try diagnostics.warn(
                codes.missingZAsZero,
                "positions without an altitude in a geometry that has some are written with Z 0")
        }
        if output.discards, !geometry.containsCircle {
            // Bytes that go nowhere (`geoconv info` learning what would be lost): past this
            // point only a circle (which neither WKT nor WKB holds) and a `.wkb` file's second
            // geometry are refused.
            if form == .wkbBinary, written > 0 { throw Self.secondGeometry }
            written += 1
            return
        }
        buffer.removeAll(keepingCapacity: true)
        switch form {
        case .wkt:
            try writer.append(geometry, srid: srid, to: &buffer)
            buffer.append(0x0A)
        case .wkbHex:
            var wkb: [UInt8] = []
            try WKB.append(geometry, flavor: srid == nil ? .iso : .extended, srid: srid, to: &wkb)
            WKB.appendHex(wkb, to: &buffer)
            buffer.append(0x0A)
        case .wkbBinary:
            guard written == 0 else { throw Self.secondGeometry }
            try WKB.append(geometry, flavor: srid == nil ? .iso : .extended, srid: srid, to: &buffer)
        }
        try output.write(buffer)
        written += 1
    }

    /// Into nowhere, what a feature loses follows from its shape (properties, names, style and
    /// id; no geometry; altitudes on some positions only), but for a `.wkb` file's second
    /// geometry: whether one was written is part of the key. Circles and numbers that are
    /// not finite, which are refused, are written.
    public mutating func lossKey(of feature: Feature, shape: FeatureShape) -> LossKey? {
        guard output.discards, shape.facts.contains(.isAllFinite), !shape.facts.contains(.containsCircle)
        else { return nil }
        return shape.key(state: form == .wkbBinary && written > 0 ? 1 : 0)
    }

    /// A `.wkb` file's refusal of a second geometry (made once: each later one is refused too).
    private static let secondGeometry = GeoConvError(
        .unsupported,
        "a .wkb file holds one geometry, and the input has more",
        hint: "write hex WKB, one per line (--to wkbhex), or WKT")

    /// One geometry per line: lines are written apart (a `.wkb` file's single geometry is not).
    public func recordsWriter(into output: ByteWriter, diagnostics: DiagnosticLog) -> (any FeatureWriter)? {
        guard form != .wkbBinary else { return nil }
        var writer = self
        writer.output = output
        writer.diagnostics = diagnostics
        writer.buffer = []
        return writer
    }

    public mutating func appendRecords(_ bytes: [UInt8], count: Int) throws(GeoConvError) {
        try output.write(bytes)
        written += count
    }

    public mutating func finish() throws(GeoConvError) {
        if form == .wkbBinary && written == 0 {
            throw GeoConvError(
                .unsupported, "a .wkb file holds one geometry, and the input has none",
                hint: "write hex WKB or WKT, which can be empty")
        }
        try output.flush()
    }
}
