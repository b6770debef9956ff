/// Reprojects every feature from the document's CRS (or `--s-srs`) to the target CRS
/// (`--t-srs`, else WGS84 longitude/latitude), through PROJ, and reports what PROJ could not
/// do exactly: coordinates outside the source CRS's area of use, and datum grids PROJ lacks.
/// An identity when both sides are WGS84.
public struct Reproject: FeatureTransform {
    /// The source CRS, overriding the document's.
    public var sourceCRS: String?
    /// The target CRS; `nil` for WGS84 longitude/latitude, or for the source's own CRS when
    /// `keepsSourceCRS`.
    public var targetCRS: String?
    /// With no `targetCRS`: keep the coordinates in the source CRS (WKT and WKB, which can
    /// say their CRS) rather than reproject them to WGS84.
    public var keepsSourceCRS: Bool
    private var reprojection: Reprojection?

    /// Creates the transform.
    public init(sourceCRS: String? = nil, targetCRS: String? = nil, keepsSourceCRS: Bool = false) {
        self.sourceCRS = sourceCRS
        self.targetCRS = targetCRS
        self.keepsSourceCRS = keepsSourceCRS
    }

    /// Whether a CRS name means WGS84 longitude/latitude.
    public static func isWGS84(_ crs: String?) -> Bool { WGS84Names.contains(crs) }

    public mutating func transform(
        _ header: DocumentHeader, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        let source = sourceCRS ?? header.crs
        var result = header
        if targetCRS == nil, keepsSourceCRS {
            // Kept as it is; PROJ still checks that the CRS exists (without the PROJ trait it is
            // carried unchecked: nothing is transformed).
            if let source, !Reproject.isWGS84(source), PROJLibrary.isLinked {
                do throws(GeoConvError) {
                    _ = try Reprojection(from: source, to: source)
                } catch {
                    // The file's own CRS (a .prj PROJ cannot read, "Unknown Projection"): carried as
                    // written, since nothing is reprojected; one the user gave must be right.
                    guard sourceCRS == nil else { throw error }
                    try diagnostics.warn(
                        PipelineCode.projCRSNotUnderstood,
                        "the input's CRS is not one PROJ reads (\(error.message)): it is carried as "
                            + "written and nothing is reprojected",
                        hint: "to convert to a format in degrees, give the input's CRS with --s-srs")
                }
            }
            result.crs = Reproject.isWGS84(source) ? nil : source
            return result
        }
        result.crs = Reproject.isWGS84(targetCRS) ? nil : targetCRS
        guard !(Reproject.isWGS84(source) && Reproject.isWGS84(targetCRS)) else { return result }
        let operation: Reprojection
        do throws(GeoConvError) {
            operation = try Reprojection(
                from: Reproject.isWGS84(source) ? "OGC:CRS84" : (source ?? "OGC:CRS84"),
                to: targetCRS.map { Reproject.isWGS84($0) ? "OGC:CRS84" : $0 } ?? "OGC:CRS84")
        } catch {
            // The file's own CRS, which PROJ cannot read: say how to give the right one.
            guard sourceCRS == nil, header.crs != nil, error.code == .invalidInput,
                error.hint?.contains("ESRI:") != true  // (an Esri code's hint says what to give)
            else { throw error }
            throw GeoConvError(
                error.code, error.message, at: error.location,
                hint: "give the input's CRS with --s-srs (EPSG:n, ESRI:n, a +proj string or WKT); "
                    + "a format that keeps the CRS (Shapefile, GeoParquet, WKT) converts without it")
        }
        if !operation.missingGrids.isEmpty {
            try diagnostics.warn(
                PipelineCode.projGridMissing,
                "the datum change from \(operation.source) needs \(operation.missingGrids.joined(separator: ", ")), which PROJ does not have here; a less accurate transformation is used\(operation.accuracy.map { " (about \($0) m)" } ?? "")",
                hint: "install the grid (projsync, or the proj-data package) for full accuracy")
        }
        reprojection = operation
        return result
    }

    public func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool {
        reprojection == nil || features.indices.allSatisfy { features[$0].geometry == nil }
    }

    public func leavesUnchanged(geometriesOf kinds: Set<GeometryKind>) -> Bool { reprojection == nil || kinds.isEmpty }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        guard reprojection != nil, feature.geometry != nil else { return nil }  // the identity
        feature = try transform(feature, diagnostics: diagnostics)[0]
        return nil
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard let reprojection, let geometry = feature.geometry else { return [feature] }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(16)
        geometry.forEachCoordinate { coordinates.append($0) }
        let originals = coordinates
        try reprojection.transform(&coordinates)
        if let area = reprojection.areaOfUse {
            let lonLat = Reproject.isWGS84(targetCRS) ? coordinates : (reprojection.sourceIsGeographic ? originals : [])
            if let outside = lonLat.first(where: { !area.contains($0) }) {
                try diagnostics.warn(
                    PipelineCode.projOutsideAreaOfUse,
                    "(\(DecimalFormatter.shortest(outside.longitude)), \(DecimalFormatter.shortest(outside.latitude))) is outside the area of use of \(reprojection.sourceName) (\(area)); the transformation may be inaccurate there",
                    hint: "check that --s-srs names the CRS the data is really in")
            }
        }
        var index = 0
        var copy = feature
        copy.geometry = geometry.mapCoordinates { _ in
            defer { index += 1 }
            return coordinates[index]
        }
        if Reproject.isWGS84(targetCRS), !reprojection.sourceIsGeographic, let projected = copy.geometry,
            let unwrapped = try Reproject.unwrappingWraps(projected, original: geometry, through: reprojection)
        {
            copy.geometry = unwrapped
        }
        copy.foreignMembers.removeValue(forKey: "bbox")  // stale after reprojection
        return [copy]
    }
}

extension Reproject {
    /// The reprojected geometry with its longitudes made continuous where PROJ wrapped an
    /// edge at ±180° (an edge of a projected line that crosses the antimeridian comes out of
    /// PROJ as 170° → -170°); `nil` when no edge wrapped. An edge wrapped when the middle of
    /// the projected edge lands nearer the antimeridian than its ends; a long edge through 0°
    /// does not. The continuous longitudes go beyond ±180°, which GeoJSON's writer cuts.
    static func unwrappingWraps(
        _ geometry: Geometry, original: Geometry, through reprojection: Reprojection
    ) throws(GeoConvError)
        -> Geometry?
    {
        var outputPaths: [[Coordinate]] = []
        var inputPaths: [[Coordinate]] = []
        geometry.forEachPath { outputPaths.append($0) }
        original.forEachPath { inputPaths.append($0) }
        var suspects: [(a: Coordinate, b: Coordinate, inputA: Coordinate, inputB: Coordinate)] = []
        for (output, input) in zip(outputPaths, inputPaths) where output.count == input.count {
            for i in output.indices.dropFirst() where abs(output[i].longitude - output[i - 1].longitude) > 180 {
                suspects.append((output[i - 1], output[i], input[i - 1], input[i]))
            }
        }
        guard !suspects.isEmpty else { return nil }
        var middles = suspects.map { edge in
            Coordinate(
                latitude: (edge.inputA.latitude + edge.inputB.latitude) / 2,
                longitude: (edge.inputA.longitude + edge.inputB.longitude) / 2)
        }
        try reprojection.transform(&middles)
        let wrapped = zip(suspects, middles).contains { edge, middle in
            abs(middle.longitude) > (abs(edge.a.longitude) + abs(edge.b.longitude)) / 2
        }
        guard wrapped else { return nil }
        // A hole is unwrapped from its shell's first longitude, so that it stays inside its shell.
        return geometry.mapPaths { Antimeridian.unwrap(Path($0), reference: $1) }
    }
}

extension Geometry {
    /// Calls `body` with every line and ring, in order.
    func forEachPath(_ body: ([Coordinate]) -> Void) {
        switch self {
        case .lineString(let path): body(path.coordinates)
        case .multiLineString(let lines): lines.forEach { body($0.coordinates) }
        case .polygon(let rings): rings.rings.forEach { body($0.coordinates) }
        case .multiPolygon(let polygons): polygons.forEach { $0.rings.forEach { body($0.coordinates) } }
        case .geometryCollection(let members): members.forEach { $0.forEachPath(body) }
        case .point, .multiPoint, .circle, .empty: return
        }
    }

    /// The geometry with every line and ring passed through `transform` (points unchanged),
    /// shells before their holes; a hole's call is given its shell's first longitude as it came
    /// out of `transform`, other calls `nil`.
    func mapPaths(_ transform: ([Coordinate], Double?) -> [Coordinate]) -> Geometry {
        func rings(_ r: PolygonRings) -> PolygonRings {
            let outer = transform(r.outer.coordinates, nil)
            let reference = outer.first?.longitude
            return PolygonRings(outer: Path(outer), holes: r.holes.map { Path(transform($0.coordinates, reference)) })
        }
        switch self {
        case .lineString(let path): return .lineString(Path(transform(path.coordinates, nil)))
        case .multiLineString(let lines): return .multiLineString(lines.map { Path(transform($0.coordinates, nil)) })
        case .polygon(let r): return .polygon(rings(r))
        case .multiPolygon(let polygons): return .multiPolygon(polygons.map(rings))
        case .geometryCollection(let members): return .geometryCollection(members.map { $0.mapPaths(transform) })
        case .point, .multiPoint, .circle, .empty: return self
        }
    }
}

/// Warns about positions outside latitude ±90 / longitude ±180 in geographic (WGS84) input,
/// naming the likely latitude/longitude swap. An error with `--strict`.
///
/// `positionsOutOfRange(in:)` lists every such position with the same message, for
/// `geoconv validate` (which reports each as an error) and `geoconv measure`.
public struct GeographicRangeCheck: FeatureTransform {
    /// Whether the input is WGS84 longitude/latitude, so that the check applies: set from
    /// `sourceCRS`, else the document's CRS, by `transform(_:diagnostics:)` on the header.
    public private(set) var isActive = true
    /// The input's CRS given on the command line, overriding the document's.
    public var sourceCRS: String?

    /// Creates the check.
    public init(sourceCRS: String? = nil) { self.sourceCRS = sourceCRS }

    public mutating func transform(
        _ header: DocumentHeader, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        isActive = Reproject.isWGS84(sourceCRS ?? header.crs)
        return header
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        _ = try transform(inPlace: &copy, diagnostics: diagnostics)
        return [copy]
    }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        guard isActive, let geometry = feature.geometry else { return nil }
        if case .point(let c) = geometry, c.isValidGeographic { return nil }  // the common case, without a list
        guard let first = Self.positionsOutOfRange(in: geometry, limit: 1).first else { return nil }
        try diagnostics.warn(PipelineCode.coordinateOutOfRange, first.message, hint: Self.hint)
        return nil
    }

    /// The hint of the warning: which order each format puts the axes in.
    public static let hint = "GeoJSON, KML and WKT put longitude first; polylines latitude first"

    /// A position outside longitude ±180 / latitude ±90 (or not finite), and what it suggests.
    public struct OutOfRange: Hashable, Sendable {
        /// The position.
        public var coordinate: Coordinate
        /// `(lon, lat) is outside longitude ±180 / latitude ±90`, with the likely cause when
        /// there is one: latitude and longitude swapped, or projected data.
        public var message: String
    }

    /// The positions of `geometry` outside longitude ±180 / latitude ±90, in order, the first
    /// `limit` of them (a position repeated in the geometry is listed each time). A swap is
    /// suggested only when every position of the geometry would be in range swapped.
    public static func positionsOutOfRange(in geometry: Geometry, limit: Int = .max) -> [OutOfRange] {
        var outside: [Coordinate] = []
        var swapped = true
        geometry.forEachCoordinate { c in
            if !c.isValidGeographic, outside.count < limit { outside.append(c) }
            if abs(c.longitude) > 90 || abs(c.latitude) > 180 { swapped = false }
        }
        return outside.map { c in
            var message =
                "(\(DecimalFormatter.shortest(c.longitude)), \(DecimalFormatter.shortest(c.latitude))) is outside longitude ±180 / latitude ±90"
            if abs(c.latitude) > 90, abs(c.longitude) <= 90, swapped {
                message += "; latitude and longitude look swapped"
            } else if abs(c.longitude) > 360 || abs(c.latitude) > 360 {
                message += "; the data looks projected: give its CRS with --s-srs"
            }
            return OutOfRange(coordinate: c, message: message)
        }
    }
}

/// Drops the EMPTY members of multi-geometries (`MULTILINESTRING ((0 0, 1 1), EMPTY)`, read
/// from WKT or WKB) for formats that cannot hold them, with a note; a multi-geometry left
/// without members becomes an empty one. Collections keep their empty members.
public struct DropEmptyMembers: FeatureTransform {
    /// The formats that can hold EMPTY members, named in the note.
    public var keptBy: [String]

    /// Creates the transform; `keptBy` names the formats that could keep what it drops.
    public init(keptBy: [String] = []) { self.keptBy = keptBy }

    public func leavesUnchanged(geometriesOf kinds: Set<GeometryKind>) -> Bool {
        kinds.isDisjoint(with: [.multiLineString, .multiPolygon, .geometryCollection])
    }

    public func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool {
        // (Only multi-geometries have members: the others are passed without taking them out of the feature.)
        for index in features.indices {
            switch features[index].geometry {
            case .multiLineString?, .multiPolygon?, .geometryCollection?:
                if let geometry = features[index].geometry, Self.withoutEmptyMembers(geometry) != nil { return false }
            default: continue
            }
        }
        return true
    }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        guard let geometry = feature.geometry, let kept = Self.withoutEmptyMembers(geometry) else { return nil }
        feature.geometry = kept
        diagnostics.note(
            PipelineCode.geometryEmptyMemberDropped,
            "EMPTY members of multi-geometries are dropped"
                + (keptBy.isEmpty ? "" : " (formats that hold them: \(keptBy.joined(separator: ", ")))"))
        return nil
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        var copy = feature
        return try transform(inPlace: &copy, diagnostics: diagnostics) ?? [copy]
    }

    /// `geometry` without its empty members, or `nil` when it has none.
    static func withoutEmptyMembers(_ geometry: Geometry) -> Geometry? {
        switch geometry {
        case .multiLineString(let lines) where lines.contains(where: \.isEmpty):
            let kept = lines.filter { !$0.isEmpty }
            return kept.isEmpty ? .empty(.multiLineString) : .multiLineString(kept)
        case .multiPolygon(let polygons) where polygons.contains(where: { $0.outer.isEmpty }):
            let kept = polygons.filter { !$0.outer.isEmpty }
            return kept.isEmpty ? .empty(.multiPolygon) : .multiPolygon(kept)
        case .geometryCollection(let members):
            var changed = false
            let kept = members.map { member -> Geometry in
                guard let without = withoutEmptyMembers(member) else { return member }
                changed = true
                return without
            }
            return changed ? .geometryCollection(kept) : nil
        default:
            return nil
        }
    }
}

/// A transform of the document's header alone: every feature passes as it is, uncopied.
public protocol HeaderTransform: FeatureTransform {}

extension HeaderTransform {
    public func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool { true }

    public func leavesUnchanged(geometriesOf kinds: Set<GeometryKind>) -> Bool { true }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? { nil }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        [feature]
    }
}

/// Drops what of the document's header the format being written cannot hold (its name, view,
/// tile layers, members: `FormatCapabilities.holdsHeader`) before its writer, with the one
/// warning that says so (`document.parts-dropped`) and names the formats that hold it all.
public struct DropHeaderParts: HeaderTransform {
    /// The format being written.
    public var format: FileFormat
    /// The writable formats, named in the hint when they hold what is dropped.
    public var holders: [FileFormat]

    /// Creates the transform for writing `format`.
    public init(format: FileFormat, holders: [FileFormat] = []) {
        self.format = format
        self.holders = holders
    }

    public mutating func transform(
        _ header: DocumentHeader, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        let unheld = header.partsUnheld(by: format)
        guard !unheld.parts.isEmpty else { return header }
        let keptBy = holders.filter { $0.name != format.name && DocumentHeader.holds($0, unheld) }.map(\.name)
        return try header.droppingParts(unheldBy: format, keptBy: keptBy, diagnostics: diagnostics)
    }
}

/// Drops the files a document carries (a KMZ's images) before a writer whose format cannot
/// hold them, with the one warning that says so and names the formats that could.
public struct DropEmbeddedFiles: HeaderTransform {
    /// The format being written.
    public var format: String
    /// The formats that hold embedded files, named in the hint.
    public var keptBy: [String]

    /// Creates the transform for writing `format`.
    public init(format: String, keptBy: [String] = []) {
        self.format = format
        self.keptBy = keptBy
    }

    public mutating func transform(
        _ header: DocumentHeader, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> DocumentHeader {
        guard header.embeddedFiles != nil else { return header }
        try header.reportEmbeddedFilesDropped(by: format, keptBy: keptBy, diagnostics: diagnostics)
        var result = header
        result.embeddedFiles = nil
        return result
    }
}
