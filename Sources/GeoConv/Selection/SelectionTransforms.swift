import GeoConvCore
import GeoConvFormatKit
import GeoConvProjection

extension Converter {
    /// The transforms of `options.selection`, in ogr2ogr's order: `--where` and `--bbox` on
    /// each feature as read, then `classes` and `styling` (which see every property), then
    /// `--explode-collections`, `--select` and `--dim` (`--limit`
    /// is the pipeline's: reading stops there). Empty when nothing is selected. The
    /// expression is parsed here, so a bad one is an error before anything is read; the
    /// result makes a fresh set for each run of a parallel conversion.
    ///
    /// - Throws: `usage` for a bad `--where` (at its column), a `--limit` below 0 or
    ///   `--bbox-srs` without `--bbox`.
    func selectionTransforms(
        _ options: ConversionOptions, classes: FeatureClasses? = nil, styling: StyleRules? = nil
    ) throws(GeoConvError) -> () -> [any FeatureTransform] {
        let selection = options.selection
        let expression = try selection.whereClause.map { (text) throws(GeoConvError) in try WhereExpression(text) }
        if let limit = selection.limit, limit < 0 {
            throw GeoConvError(
                .usage, "--limit \(limit) is negative", hint: "give the number of features to write, 0 or more")
        }
        if selection.boundingBoxCRS != nil, selection.boundingBox == nil {
            throw GeoConvError(
                .usage, "--bbox-srs names the CRS of --bbox, which is not given", hint: "add --bbox W,S,E,N")
        }
        return {
            var all: [any FeatureTransform] = []
            if expression != nil || selection.boundingBox != nil {
                all.append(
                    FilterFeatures(
                        expression: expression, box: selection.boundingBox, boxCRS: selection.boundingBoxCRS,
                        sourceCRS: options.sourceCRS))
            }
            if let classes { all.append(classes.transform()) }
            if let styling { all.append(styling) }
            if selection.explodesCollections { all.append(ExplodeCollections()) }
            if let names = selection.properties { all.append(SelectProperties(names)) }
            if let dimension = selection.dimension { all.append(SetDimension(dimension)) }
            return all
        }
    }
}

/// `--where` and `--bbox`: drops the features that do not match, counting them in a note.
/// Features without a geometry never intersect a box (as with ogr2ogr).
struct FilterFeatures: FeatureTransform {
    let expression: WhereExpression?
    let box: FeatureSelection.Box?
    let boxCRS: String?
    let sourceCRS: String?
    private var boxes: SelectionBoxes?
    /// `expression`, made to be evaluated; `nil` without one.
    private var program: WhereProgram?

    init(expression: WhereExpression?, box: FeatureSelection.Box?, boxCRS: String?, sourceCRS: String?) {
        self.expression = expression
        program = expression.map { WhereProgram([$0]) }
        self.box = box
        self.boxCRS = boxCRS
        self.sourceCRS = sourceCRS
        boxes = box.map(SelectionBoxes.init)
    }

    /// Puts the box into the input's CRS when `--bbox-srs` names another.
    mutating func transform(_ header: DocumentHeader, diagnostics: DiagnosticLog) throws(GeoConvError) -> DocumentHeader
    {
        guard let box, let boxCRS else { return header }
        let source = sourceCRS ?? header.crs
        guard !(Reproject.isWGS84(boxCRS) && Reproject.isWGS84(source)) && boxCRS != source else { return header }
        boxes = SelectionBoxes(try Self.box(box, from: boxCRS, to: source ?? "OGC:CRS84"))
        return header
    }

    /// The envelope of `box`'s outline (21 points an edge) in `target`.
    static func box(
        _ box: FeatureSelection.Box, from source: String, to target: String
    ) throws(GeoConvError) -> FeatureSelection.Box {
        let operation = try Reprojection(
            from: Reproject.isWGS84(source) ? "OGC:CRS84" : source, to: Reproject.isWGS84(target) ? "OGC:CRS84" : target
        )
        let east = box.east < box.west ? box.east + 360 : box.east
        var outline: [Coordinate] = []
        for step in 0...20 {
            let t = Double(step) / 20
            let x = box.west + (east - box.west) * t
            let y = box.south + (box.north - box.south) * t
            outline += [
                Coordinate(latitude: box.south, longitude: x), Coordinate(latitude: box.north, longitude: x),
                Coordinate(latitude: y, longitude: box.west), Coordinate(latitude: y, longitude: east),
            ]
        }
        try operation.transform(&outline)
        let xs = outline.map(\.longitude).filter(\.isFinite)
        let ys = outline.map(\.latitude).filter(\.isFinite)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
            throw GeoConvError(
                .usage, "--bbox cannot be put into \(target) from \(source)", hint: "give the box in the input's CRS")
        }
        return FeatureSelection.Box(west: minX, south: minY, east: maxX, north: maxY)
    }

    mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        if program?.matches(feature) == false {
            diagnostics.note(PipelineCode.selectionWhere, "features not matching --where are left out, as asked")
            return []
        }
        if let boxes {
            guard let geometry = feature.geometry, boxes.intersects(geometry) else {
                diagnostics.note(PipelineCode.selectionBbox, "features outside --bbox are left out, as asked")
                return []
            }
        }
        return nil
    }

    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }
}

/// `--explode-collections`: one feature per part of a multi-geometry, and per member of a
/// collection (one level, as ogr2ogr), each with the feature's id, text, style and
/// properties. A multi-geometry without parts stays as it is.
struct ExplodeCollections: FeatureTransform {
    mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        let parts: [Geometry]
        switch feature.geometry {
        case .multiPoint(let points)?: parts = points.map(Geometry.point)
        case .multiLineString(let lines)?: parts = lines.map(Geometry.lineString)
        case .multiPolygon(let polygons)?: parts = polygons.map(Geometry.polygon)
        case .geometryCollection(let members)?: parts = members
        default: return nil
        }
        guard !parts.isEmpty else { return nil }
        feature.foreignMembers.removeValue(forKey: "bbox")  // each part has its own
        return parts.map { part in
            var copy = feature
            copy.geometry = part
            return copy
        }
    }

    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }
}

/// `--select a,b,c`: the properties named, in that order, under their own names (found as
/// `--where` finds them: exactly, else in another case); the title kept only when `name` or
/// `title` is named, the snippet when `description` or `snippet` is. Id and style are kept.
struct SelectProperties: FeatureTransform {
    let fields: [FieldReference]
    let keepsTitle: Bool
    let keepsSnippet: Bool

    init(_ names: [String]) {
        fields = names.map(FieldReference.init)
        keepsTitle = fields.contains { $0.modelField == .title }
        keepsSnippet = fields.contains { $0.modelField == .snippet }
    }

    mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        var kept = JSONObject()
        kept.reserveCapacity(fields.count)
        for field in fields {
            if let value = feature.properties[field.name] {
                kept[field.name] = value
            } else if let index = FieldNames.caseInsensitiveIndex(field.name, in: feature.properties) {
                kept[feature.properties.keys[index]] = feature.properties.values[index]
            }
        }
        let dropsText = (!keepsTitle && feature.title != nil) || (!keepsSnippet && feature.snippet != nil)
        if kept.count != feature.properties.count || dropsText {
            diagnostics.note(PipelineCode.selectionSelect, "properties not named by --select are left out, as asked")
        }
        feature.properties = kept
        if !keepsTitle { feature.title = nil }
        if !keepsSnippet { feature.snippet = nil }
        return nil
    }

    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }
}

/// `--dim 2` drops altitudes; `--dim 3` gives every position one (0 where it had none).
struct SetDimension: FeatureTransform {
    let dimension: FeatureSelection.Dimension

    init(_ dimension: FeatureSelection.Dimension) { self.dimension = dimension }

    mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        guard let geometry = feature.geometry else { return nil }
        switch dimension {
        case .xy:
            guard geometry.hasAltitude else { return nil }
            diagnostics.note(PipelineCode.selectionDim, "altitudes are dropped, as --dim 2 asks")
            feature.geometry = geometry.mapCoordinates { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        case .xyz:
            feature.geometry = geometry.mapCoordinates {
                Coordinate(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude ?? 0)
            }
        }
        return nil
    }

    mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }
}

extension Converter {
    /// The style rules of `options.styleRules`, `nil` when there are none; their values of
    /// the wrong kind reported into `diagnostics` (errors when it is strict).
    ///
    /// - Throws: `usage` for a rule that does not parse, at its line and column.
    func styleRules(_ options: ConversionOptions, diagnostics: DiagnosticLog) throws(GeoConvError) -> StyleRules? {
        guard !options.styleRules.isEmpty else { return nil }
        let rules = try StyleRules(options.styleRules)
        try rules.reportProblems(into: diagnostics)
        return rules
    }
}
