public import GeoConvCore
public import GeoConvFormatKit

/// Turns circles into geodesic polygons (for formats that cannot hold circles, or on
/// request with `--circles polygon`), reporting the approximation — or, with
/// `keepsCircleAsData` (KML's default), drawing a circle as its polygon while keeping its
/// centre and radius as properties (`ModelKey.circleCenter`, `ModelKey.radius`), so nothing is lost.
public struct CircleToPolygon: FeatureTransform {
    /// The largest distance in metres between the polygon and the true circle; `nil` for
    /// 0.1 % of the radius, at most 1 m.
    public var tolerance: Double?

    /// Whether a circle (not one inside a GeometryCollection) keeps its centre and radius
    /// as properties beside its polygon.
    public var keepsCircleAsData: Bool

    /// The formats that hold circles exactly, named in the warning's hint.
    public var keptBy: [String]

    /// Creates the transform; `keptBy` names the formats that could keep circles exactly.
    public init(tolerance: Double? = nil, keepsCircleAsData: Bool = false, keptBy: [String] = []) {
        self.tolerance = tolerance
        self.keepsCircleAsData = keepsCircleAsData
        self.keptBy = keptBy
    }

    public func leavesUnchanged(geometriesOf kinds: Set<GeometryKind>) -> Bool {
        !kinds.contains(.circle) && !kinds.contains(.geometryCollection)
    }

    public func leavesUnchanged(_ features: UnsafeBufferPointer<Feature>) -> Bool {
        // (Cases matched without taking the geometry out of the feature: no copy per feature.)
        for index in features.indices {
            switch features[index].geometry {
            case .circle?: return false
            case .geometryCollection(let members)?: if members.contains(where: \.containsCircle) { return false }
            default: continue
            }
        }
        return true
    }

    public mutating func transform(
        inPlace feature: inout Feature, diagnostics: DiagnosticLog
    ) throws(GeoConvError) -> [Feature]? {
        guard let geometry = feature.geometry, geometry.containsCircle else { return nil }
        return try transform(feature, diagnostics: diagnostics)
    }

    public mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
        guard let geometry = feature.geometry, geometry.containsCircle else { return [feature] }
        var copy = feature
        copy.geometry = try convert(geometry, at: diagnostics.currentLocation)
        if keepsCircleAsData, case .circle(let center, let radius) = geometry,
            let lon = JSONNumber(center.longitude), let lat = JSONNumber(center.latitude),
            let metres = JSONNumber(radius)
        {
            copy.properties[.radius] = .number(metres)
            copy[model: .circleCenter] = [.number(lon), .number(lat)]
            diagnostics.note(
                GeometryCode.circleDrawnAsPolygon,
                "circles are drawn as geodesic polygons, their centre and radius kept as data (\(ModelKey.circleCenter.name), \(ModelKey.radius.name))"
            )
            return [copy]
        }
        copy.properties.removeValue(forKey: .radius)  // it described the circle
        try diagnostics.warn(
            GeometryCode.circleApproximated,
            "circles are written as geodesic polygons within \(tolerance.map { "\($0) m" } ?? "0.1 % of the radius (at most 1 m)") of the true circle",
            hint: keptBy.isEmpty ? nil : "to keep circles exactly, write one of: \(keptBy.joined(separator: ", "))")
        return [copy]
    }

    /// `geometry` with its circles as polygons; an error for a circle whose centre is not a
    /// longitude and latitude (a radius in metres is drawn on the ellipsoid).
    private func convert(_ geometry: Geometry, at location: SourceLocation?) throws(GeoConvError) -> Geometry {
        switch geometry {
        case .circle(let center, let radius):
            guard center.longitude.isFinite, abs(center.latitude) <= 90 else {
                throw GeoConvError(
                    .invalidInput,
                    "a circle's centre (\(center.longitude), \(center.latitude)) is not a longitude and latitude: "
                        + "its radius in metres cannot be drawn around it",
                    at: location,
                    hint: "give the input's CRS with --s-srs (circles are drawn in longitude and latitude)")
            }
            return .polygon(
                PolygonRings(outer: CirclePolygon.ring(center: center, radius: radius, tolerance: tolerance)))
        case .geometryCollection(let members):
            var converted: [Geometry] = []
            for member in members { converted.append(try convert(member, at: location)) }
            return .geometryCollection(converted)
        default: return geometry
        }
    }
}
