public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

/// Reads FlatGeobuf (version 3), streaming: the magic bytes, the header (its layer name and
/// description, columns, CRS), the packed R-tree skipped unread, then one size-prefixed
/// feature at a time. Memory holds one feature's bytes.
///
/// - Geometry: points, lines, polygons (rings cut at `ends`), their multi forms and
///   collections, with altitudes when the header says `has_z`; an empty geometry is none.
///   A Triangle is a Polygon, a TIN or PolyhedralSurface a MultiPolygon of its faces
///   (reported); curves are refused with a hint. M, T and TM values are not carried
///   (reported, counted by feature).
/// - Properties: every header column (a feature's own `columns` when it lists them), in
///   column order; a column the feature leaves out is null, as GDAL reads it. Integers and
///   reals as numbers (a float by its shortest decimal), booleans, text; `Json` columns as
///   the JSON value they hold; `DateTime` as its ISO 8601 text; `Binary` as lower-case hex.
///   The title and snippet are derived as for every table of columns (`TitleProperties`).
/// - The CRS: `EPSG:n` from the header's `crs` (none, or code 4326, is WGS84); another
///   organisation's code as `ORG:code`; else its WKT.
public struct FlatGeobufReader: FeatureReader {
    private let input: ByteReader
    private let diagnostics: DiagnosticLog
    /// The header, once read (given, for a reader of a run: `FlatGeobufReaderRuns`).
    var header: FlatGeobufHeader? {
        didSet { layout = header.map(FeatureLayout.init) }
    }
    /// What each feature's reading needs of the header: a few flags, not the header's strings
    /// and columns, which a feature would copy.
    private var layout: FeatureLayout?

    private struct FeatureLayout {
        let geometryType: UInt8
        let hasZ: Bool
        /// Whether the geometries have M, T or TM values (not carried over).
        let hasMeasures: Bool

        init(_ header: FlatGeobufHeader) {
            geometryType = header.geometryType
            hasZ = header.hasZ
            hasMeasures = header.hasM || header.hasT || header.hasTM
        }
    }
    /// Where the next feature's size prefix starts in the input.
    var offset = 0
    /// The input, read in large pieces.
    let source: FlatGeobufInput
    /// The current feature's bytes (one storage, filled again for each feature).
    private let featureBuffer: FlatBuffer
    /// The header's columns and the properties each feature starts from.
    private var properties = FlatGeobufProperties(columns: [])
    /// `--bbox` in the file's coordinates (two boxes across the antimeridian), for the index.
    private let boxes: [FlatGeobufIndex.Box]?
    /// With an index and a box: the offsets (from the first feature) of the features the index
    /// found, the next one to read, and where the features start.
    var found: [Int]?
    private var nextFound = 0
    private var featuresStart = 0

    /// Where the last feature starts (a byte offset; FlatGeobuf has no lines).
    public private(set) var lastLocation: SourceLocation?

    /// Creates a reader of `input`. With `boundingBox` (`--bbox` in the file's coordinates),
    /// a file with a spatial index read from a file or memory reads only the features whose
    /// boxes meet it, found through the index; the pipeline's own `--bbox` still decides which
    /// of them are kept.
    public init(_ input: ByteReader, boundingBox: FeatureSelection.Box? = nil, diagnostics: DiagnosticLog) {
        self.input = input
        self.diagnostics = diagnostics
        featureBuffer = FlatBuffer(file: input.name)
        source = FlatGeobufInput(input)
        boxes = boundingBox.map { box in
            guard box.west > box.east else {
                return [FlatGeobufIndex.Box(minX: box.west, minY: box.south, maxX: box.east, maxY: box.north)]
            }
            return [
                FlatGeobufIndex.Box(minX: box.west, minY: box.south, maxX: 180, maxY: box.north),
                FlatGeobufIndex.Box(minX: -180, minY: box.south, maxX: box.east, maxY: box.north),
            ]
        }
    }

    /// Creates a reader of a run of size-prefixed features cut from a file with `header`
    /// (`nextFeatureRun`): no magic bytes, header or index before them.
    init(run input: ByteReader, header: FlatGeobufHeader, diagnostics: DiagnosticLog) {
        self.init(input, diagnostics: diagnostics)
        self.header = header
        layout = FeatureLayout(header)  // (an initializer's assignment calls no didSet)
        properties = FlatGeobufProperties(columns: header.columns)
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        // (A run's reader has its file's header, and nothing of it to tell.)
        guard header == nil else { return DocumentHeader() }
        let magic = try read(8, what: "the magic bytes")
        if magic.count == 8, magic[0..<3].elementsEqual("fgb".utf8), magic[4..<7].elementsEqual("fgb".utf8),
            magic[3] != 3
        {
            throw GeoConvError(
                .unsupported, "FlatGeobuf version \(magic[3]): geoconv reads version 3 (GDAL 3.1 and later does too)",
                at: SourceLocation(file: input.name, byteOffset: 3),
                hint: "write the file again with a current FlatGeobuf writer")
        }
        guard magic.starts(with: FlatGeobufHeader.magicPrefix) else {
            throw GeoConvError(
                .invalidInput, "not a FlatGeobuf file: it does not start with the bytes \"fgb\\u{3}fgb\"",
                at: SourceLocation(file: input.name, byteOffset: 0), hint: "give a .fgb file written to version 3")
        }
        let size = try read(4, what: "the header's size")
        let headerBytes = try read(Self.littleEndian(size), what: "the header")
        let table = try FlatBufferTable(root: FlatBuffer(bytes: headerBytes, base: 12, file: input.name))
        let header = try FlatGeobufHeader(table)
        self.header = header
        properties = FlatGeobufProperties(columns: header.columns)
        offset = 12 + headerBytes.count
        guard let indexSize = header.indexSize else {
            throw GeoConvError(
                .invalidInput, "the header says \(header.featuresCount) features: more than any file holds",
                at: SourceLocation(file: input.name, byteOffset: 12), hint: "the file is damaged; write it again")
        }
        if let boxes, indexSize > 0, input.readsRanges {
            let index = FlatGeobufIndex(
                input: input, start: offset, featureCount: Int(header.featuresCount),
                nodeSize: min(max(header.indexNodeSize, 2), 65_535))
            let found = try index.search(boxes)
            self.found = found
            featuresStart = offset + indexSize
            diagnostics.note(
                FlatGeobufCode.indexUsed,
                "the spatial index found \(found.count) of the file's \(header.featuresCount) features whose boxes "
                    + "meet --bbox: only those are read",
                at: SourceLocation(file: input.name, byteOffset: offset))
        } else {
            try skip(indexSize)
        }
        if let unplaced = header.unplacedCRS {
            try diagnostics.warn(
                FlatGeobufCode.crsUnknown,
                "the header names the CRS \(unplaced) without a code or WKT: the coordinates are read as they are",
                at: SourceLocation(file: input.name, byteOffset: 12), hint: "give the CRS with --s-srs")
        }
        var result = DocumentHeader()
        result.name = header.name ?? header.title
        result.description = header.description
        result.crs = header.crs
        return result
    }

    public mutating func next() throws(GeoConvError) -> Feature? {
        if header == nil { _ = try readHeader() }
        guard let layout else { return nil }
        let start: Int
        featureBuffer.removeAll()
        if let found {
            guard nextFound < found.count else { return nil }
            start = featuresStart + found[nextFound]
            nextFound += 1
            var bytes: [UInt8] = []
            try reread(at: start, into: &bytes)
            bytes.withUnsafeBytes { featureBuffer.append($0) }
        } else {
            start = offset
            // (The size into the feature's own storage: nothing allocated per feature.)
            try source.read(4, what: "a feature's size", into: featureBuffer, endsCleanly: true)
            if featureBuffer.count == 0 { return nil }
            let size = Self.littleEndian(featureBuffer.bytes)
            featureBuffer.removeAll()
            try source.read(size, what: "a feature", into: featureBuffer)
            offset += 4 + size
        }
        featureBuffer.base = start + 4
        lastLocation = SourceLocation(file: input.name, byteOffset: start)
        let table = try FlatBufferTable(root: featureBuffer)
        var feature = Feature(geometry: nil)
        if let geometry = try table.table(0) {
            var surfaces: String?
            feature.geometry = try FlatGeobufGeometry.geometry(
                geometry, type: layout.geometryType, hasZ: layout.hasZ, depth: 0, surfaces: &surfaces)
            // (Each feature's, counted: the log prints the first with how many there were.)
            if let surfaces {
                try diagnostics.warn(
                    FlatGeobufCode.surfaceAsMultiPolygon,
                    "a \(surfaces) is read as a MultiPolygon of its faces (the model has no surface type)",
                    at: lastLocation)
            }
            if layout.hasMeasures {
                try diagnostics.warn(
                    FlatGeobufCode.measuresDropped,
                    "the geometries' M, T or TM values are not carried over (the model holds x, y and z)",
                    at: lastLocation)
            }
        }
        // (A feature may list columns of its own; most take the header's.)
        let ownColumns = try FlatGeobufHeader.columns(in: table, field: 2)
        let columns = ownColumns.isEmpty ? properties : FlatGeobufProperties(columns: ownColumns)
        feature.properties = try columns.values(in: table)
        columns.titlePlaces.derive(into: &feature)
        return feature
    }

    /// `count` bytes of the input, or an error naming `what` ends early.
    private func read(_ count: Int, what: String) throws(GeoConvError) -> [UInt8] {
        var bytes: [UInt8] = []
        try read(count, what: what, into: &bytes)
        return bytes
    }

    /// `count` bytes of the input appended to `bytes` (`FlatGeobufInput.read`).
    private func read(
        _ count: Int, what: String, into bytes: inout [UInt8], endsCleanly: Bool = false
    ) throws(GeoConvError) {
        try source.read(count, what: what, into: &bytes, endsCleanly: endsCleanly)
    }

    /// The feature at `start`, read where it is (the index found it), into `bytes` (empty).
    private func reread(at start: Int, into bytes: inout [UInt8]) throws(GeoConvError) {
        func truncated() -> GeoConvError {
            GeoConvError(
                .invalidInput, "the spatial index points at a feature past the end of the file: the file is damaged",
                at: SourceLocation(file: input.name, byteOffset: start))
        }
        guard let prefix = try input.bytes(in: start..<(start + 4)), prefix.count == 4 else { throw truncated() }
        let size = Self.littleEndian(prefix)
        if let total = input.totalBytes, start + 4 + size > total { throw truncated() }
        guard try input.append((start + 4)..<(start + 4 + size), to: &bytes), bytes.count == size else {
            throw truncated()
        }
    }

    /// Reads past `count` bytes (the spatial index).
    private mutating func skip(_ count: Int) throws(GeoConvError) {
        var left = count
        while left > 0 {
            let chunk = min(left, 1 << 16)
            _ = try read(chunk, what: "the spatial index")
            left -= chunk
        }
        offset += count
    }

    /// The four bytes at the start of `bytes` as a little-endian size.
    static func littleEndian(_ bytes: some RandomAccessCollection<UInt8>) -> Int {
        let i = bytes.startIndex
        return Int(bytes[i]) | Int(bytes[bytes.index(i, offsetBy: 1)]) << 8
            | Int(bytes[bytes.index(i, offsetBy: 2)]) << 16 | Int(bytes[bytes.index(i, offsetBy: 3)]) << 24
    }
}
