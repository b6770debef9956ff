/// A whole file held in memory — its header and every feature — loaded and saved through the
/// same readers, transforms and writers as `Converter.convert`.
///
/// For editing (add, remove or restyle features, then save in any format) and for the
/// questions that need every feature at once: the bounds, the camera that shows them all
/// (the Maps SDK's `camera(for:insets:)`), the tiles they cover. For large files, stream
/// instead (`Converter.convert`, or a reader and a writer): memory here grows with the file.
///
/// ```swift
/// var document = try OverlayDocument.load(.file("trails.kml"))
/// document.features.removeAll { $0.geometry == nil }
/// for index in document.features.indices { document.features[index].style.strokeColor = Color(red: 255, green: 0, blue: 0) }
/// try document.save(to: .file("trails.geojson"))
/// ```
public struct OverlayDocument: Sendable {
    /// The document's name, description, CRS, camera, tile layers and other members.
    public var header: DocumentHeader
    /// The features, in input order.
    public var features: [Feature]
    /// The format the document was read as; `nil` for one made in code.
    public var format: FileFormat?
    /// The input's name, for messages; `nil` for one made in code.
    public var sourceName: String?
    /// The classes `options.classification` (`--classify`) coloured the features by, with
    /// the features each took; `nil` without one.
    public var legend: ClassLegend?

    /// A document made in code.
    public init(header: DocumentHeader = DocumentHeader(), features: [Feature] = []) {
        self.header = header
        self.features = features
    }

    /// Reads a whole input: format from `options.inputFormat`, else the extension, else the
    /// content, as `convert` chooses it.
    ///
    /// - Parameters:
    ///   - input: the file, standard input or bytes in memory to read.
    ///   - options: how to read it: its format, the selection (`options.selection`: `--where`,
    ///     `--bbox`…), the formats' own options.
    ///   - converter: the formats to choose from.
    ///   - reprojectingToWGS84: reproject features in another CRS (a GeoJSON `crs`, an EWKT
    ///     SRID, `options.sourceCRS`) to WGS84 longitude/latitude, as the camera and tiles
    ///     need; otherwise they stay as read and `header.crs` says their CRS.
    ///   - diagnostics: where warnings go (a strict log makes the first one an error).
    public static func load(
        _ input: InputSource, options: ConversionOptions = ConversionOptions(), converter: Converter = Converter(),
        reprojectingToWGS84: Bool = false, diagnostics: DiagnosticLog = DiagnosticLog()
    ) throws(GeoConvError)
        -> OverlayDocument
    {
        var loading = try FeatureLoading(
            input, options: options, converter: converter, reprojectingToWGS84: reprojectingToWGS84,
            diagnostics: diagnostics)
        var document = OverlayDocument(header: loading.header)
        document.format = loading.format
        document.sourceName = input.displayName
        while try loading.next({ (item: inout Feature) throws(GeoConvError) in document.features.append(item) }) {}
        document.legend = loading.classes?.legend
        return document
    }

    /// Writes the document to `output` through the transforms a conversion to that format
    /// runs (reprojection, circles as polygons where they cannot be held…), atomically. The
    /// format comes from `options.outputFormat`, else the output's extension, else the
    /// format the document was read as.
    @discardableResult
    public func save(
        to output: OutputTarget, options: ConversionOptions = ConversionOptions(), converter: Converter = Converter()
    )
        throws(GeoConvError) -> ConversionReport
    {
        let options = try converter.registry.resolved(options)
        var resolved = options
        if resolved.outputFormat == nil, !output.isFile, let format { resolved.outputFormat = format }
        let outFormat = try converter.outputFormat(for: output, options: resolved)
        guard let makeWriter = outFormat.makeWriter else {
            throw GeoConvError(.usage, "\(outFormat.name) cannot be written")
        }
        let diagnostics = DiagnosticLog(strict: options.strict)
        let writer = try ByteWriter(output)
        do throws(GeoConvError) {
            var featureWriter = try makeWriter(writer, outFormat.writerOptions(options, for: output), diagnostics)
            var reader = HeldFeatures(header: header, features: features)
            let statistics = try pump(
                from: &reader, to: &featureWriter,
                transforms: try converter.transforms(writing: outFormat, options: options)(), diagnostics: diagnostics)
            try writer.commit()
            return ConversionReport(
                inputFormat: format?.name ?? "", outputFormat: outFormat.name, statistics: statistics,
                diagnostics: diagnostics, output: writer.memoryContents)
        } catch {
            writer.abort()
            throw error
        }
    }

    /// The box around every geometry (a circle by its geodesic ring), in the document's
    /// coordinates; `nil` when no feature has a position.
    public var bounds: CoordinateBounds? {
        var bounds: CoordinateBounds?
        for feature in features {
            var geometry = feature.geometry
            if case .circle(let c, let r)? = geometry {
                geometry = .polygon(PolygonRings(outer: CirclePolygon.ring(center: c, radius: r)))
            }
            if let box = geometry?.bounds { bounds = bounds.map { $0.union(box) } ?? box }
        }
        return bounds
    }

    /// The camera that shows every feature in a viewport of `viewport` points with `insets`
    /// (the Maps SDK's `camera(for:insets:)`; 64 points on every side as `fitBounds`).
    /// - Throws: `usage` when the document is not in WGS84 (load it `reprojectingToWGS84`),
    ///   `invalidInput` when it has no position to fit.
    public func camera(
        viewport: (width: Double, height: Double), insets: EdgeInsets = EdgeInsets(padding: 64)
    ) throws(GeoConvError)
        -> CameraPosition
    {
        try requireWGS84()
        guard let bounds else {
            throw GeoConvError(
                .invalidInput, "'\(sourceName ?? "the document")' has no positions to fit",
                hint: "the camera needs at least one geometry")
        }
        return CameraPosition.fitting(bounds, viewport: viewport, insets: insets)
    }

    /// The tiles (x east, y south, origin north-west) covering every feature at `zoom`, sorted.
    /// - Throws: `usage` when the document is not in WGS84 (load it `reprojectingToWGS84`).
    public func tiles(zoom: Int) throws(GeoConvError) -> [Tile] {
        try requireWGS84()
        var tiles = Set<Tile>()
        for feature in features {
            if let geometry = feature.geometry { tiles.formUnion(Tile.covering(geometry, zoom: zoom)) }
        }
        return tiles.sorted()
    }

    private func requireWGS84() throws(GeoConvError) {
        guard Reproject.isWGS84(header.crs) else {
            throw GeoConvError(
                .usage, "the document is in \(header.crs ?? "another CRS"), not WGS84 longitude/latitude",
                hint: "load it with reprojectingToWGS84: true")
        }
    }
}

/// Features held in memory, read as a stream (for `OverlayDocument.save`).
private struct HeldFeatures: FeatureReader {
    let header: DocumentHeader
    let features: [Feature]
    var index = 0

    init(header: DocumentHeader, features: [Feature]) {
        self.header = header
        self.features = features
    }

    var lastLocation: SourceLocation? { nil }

    mutating func readHeader() throws(GeoConvError) -> DocumentHeader { header }

    mutating func next() throws(GeoConvError) -> Feature? {
        guard index < features.count else { return nil }
        index += 1
        return features[index - 1]
    }
}

extension OutputTarget {
    /// Whether the output is a named file.
    fileprivate var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}

extension OverlayDocument: Hashable {
    /// Documents are equal when their headers and features are: `format` and `sourceName` say
    /// where a document came from, not what it holds.
    public static func == (lhs: OverlayDocument, rhs: OverlayDocument) -> Bool {
        lhs.header == rhs.header && lhs.features == rhs.features
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(features)
    }
}
