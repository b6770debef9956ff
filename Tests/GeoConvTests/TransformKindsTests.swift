import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvGeometry
import GeoConvTestSupport
import Testing

/// `leavesUnchanged(geometriesOf:)` answers for many writers' transforms from the kinds of a
/// piece's geometries (`geoconv info`): it may say "unchanged" only where looking at the
/// features would, and it must say so for the kinds a transform cannot touch.
@Suite("Transforms known to leave features alone from their geometries' kinds")
struct TransformKindsTests {
    static let a = Coordinate(latitude: 1, longitude: 2)
    static let b = Coordinate(latitude: 3, longitude: 4)
    static let ring: Path = [a, b, Coordinate(latitude: 5, longitude: 2), a]

    /// One geometry of each form the transforms look for, and the plain ones.
    static let geometries: [Geometry] = [
        .point(a), .lineString([a, b]), .polygon(PolygonRings(outer: ring)), .multiPoint([a, b]),
        .multiLineString([[a, b], [b, a]]), .multiLineString([[a, b], []]),
        .multiPolygon([PolygonRings(outer: ring)]),
        .multiPolygon([PolygonRings(outer: ring), PolygonRings(outer: [])]),
        .geometryCollection([.point(a)]), .geometryCollection([.circle(center: a, radius: 10)]),
        .geometryCollection([.multiLineString([[a, b], []])]), .circle(center: b, radius: 5),
        .empty(.lineString), .empty(.multiPolygon),
    ]

    static func transforms() -> [(String, any FeatureTransform)] {
        [
            ("circles", CircleToPolygon()), ("empty members", DropEmptyMembers()), ("no reprojection", Reproject()),
            ("embedded files", DropEmbeddedFiles(format: "csv")),
        ]
    }

    @Test("Never unchanged by kinds where the features would change", arguments: 0..<200)
    func sound(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let count = Int.random(in: 1...4, using: &random)
        var features: [Feature] = []
        for _ in 0..<count {
            let geometry: Geometry? =
                Int.random(in: 0..<8, using: &random) == 0
                ? nil : Self.geometries[Int.random(in: 0..<Self.geometries.count, using: &random)]
            features.append(Feature(geometry: geometry))
        }
        let kinds = Set(features.compactMap { $0.geometry?.kind })
        for (name, transform) in Self.transforms() where transform.leavesUnchanged(geometriesOf: kinds) {
            let unchanged = features.withUnsafeBufferPointer { transform.leavesUnchanged($0) }
            #expect(unchanged, "\(name) on \(features.map { $0.geometry.map { "\($0)" } ?? "none" })")
        }
    }

    @Test("Points, lines and polygons pass every format's transforms by their kinds alone")
    func plainKinds() {
        let kinds: Set<GeometryKind> = [.point, .lineString, .polygon, .multiPoint]
        for (name, transform) in Self.transforms() {
            #expect(transform.leavesUnchanged(geometriesOf: kinds), "\(name)")
            #expect(transform.leavesUnchanged(geometriesOf: []), "\(name) without geometries")
        }
        #expect(!CircleToPolygon().leavesUnchanged(geometriesOf: [.point, .circle]))
        #expect(!CircleToPolygon().leavesUnchanged(geometriesOf: [.geometryCollection]))
        #expect(!DropEmptyMembers().leavesUnchanged(geometriesOf: [.multiLineString]))
        #expect(!DropEmptyMembers().leavesUnchanged(geometriesOf: [.multiPolygon]))
        #expect(!DropEmptyMembers().leavesUnchanged(geometriesOf: [.geometryCollection]))
    }
}
