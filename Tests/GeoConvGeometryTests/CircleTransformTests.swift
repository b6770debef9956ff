import GeoConvCore
import GeoConvGeometry
import GeoConvTestSupport
import Testing

/// Circles turned into polygons for formats that cannot hold them.
@Suite("Circles as polygons")
struct CircleTransformTests {
    @Test("Circles become geodesic polygons (as for WKT), within the tolerance")
    func circles() throws {
        let feature = Feature(
            geometry: .circle(center: Coordinate(latitude: -33.8568, longitude: 151.2153), radius: 5000))
        var transform = CircleToPolygon()
        let log = DiagnosticLog()
        let out = try transform.transform(feature, diagnostics: log)
        guard case .polygon(let rings)? = out.first?.geometry else {
            Issue.record("no polygon")
            return
        }
        #expect(rings.outer.isClosed && rings.outer.isCounterClockwise)
        #expect(rings.outer.count == CirclePolygon.vertexCount(radius: 5000, tolerance: 1) + 1)
        for vertex in rings.outer {
            #expect(
                abs(Geodesic.wgs84.inverse(Coordinate(latitude: -33.8568, longitude: 151.2153), vertex).distance - 5000)
                    < 1e-6)
        }
        #expect(log.entries["circle.approximated"] != nil)
    }
}
