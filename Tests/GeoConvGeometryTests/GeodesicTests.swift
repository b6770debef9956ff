import Foundation
import GeoConvCore
import GeoConvTestSupport
import Testing

@testable import GeoConvGeometry

#if PROJ
import CPROJ
#endif

/// Karney's geodesic algorithms in Swift (`Geodesic`), held to GeographicLib's own answers
/// (GeodSolve and Planimeter, `scripts/make-geodesic-reference.sh`) and to PROJ's C
/// implementation on random, polar, nearly antipodal, short, meridional
/// and equatorial pairs.
@Suite("Geodesics in Swift (Karney 2013)")
struct GeodesicTests {
    static func rows(_ name: String) throws -> [[Double]] {
        let text = try String(contentsOfFile: Fixtures.testdata("geodesic/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            $0.split(separator: " ").compactMap { Double($0) }
        }
    }

    /// The difference of two azimuths or longitudes in degrees, across ±180°.
    static func angleError(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    @Test(
        "The inverse problem: distances within 15 nm, azimuths within 1e-11°, S12 within 0.1 m² (10⁻¹³ relative for nearly antipodal edges) of GeodSolve (4,000 pairs)"
    )
    func inverse() throws {
        let rows = try Self.rows("inverse.tsv")
        #expect(rows.count == 4000)
        var worstDistance = 0.0
        var worstAzimuth = 0.0
        var worstArea = 0.0  // worstArea: error / tolerance
        for v in rows {
            let solution = Geodesic.wgs84.solveInverse(v[0], v[1], v[2], v[3], area: true)
            worstDistance = max(worstDistance, abs(solution.distance - v[6]))
            // Azimuths are undefined at a pole and between coincident points.
            if v[6] > 1e-3 && abs(v[0]) < 90 && abs(v[2]) < 90 {
                worstAzimuth = max(
                    worstAzimuth, Self.angleError(solution.azimuth1, v[4]), Self.angleError(solution.azimuth2, v[5]))
            }
            // S12 of a nearly antipodal edge is 10¹³–10¹⁴ m², where a double's ulp is 0.002–0.016 m²:
            // there GeographicLib's own series and exact solutions differ by up to 15 m²
            // (scripts/bench/geodesic-antipodal-area.sh), and ours agrees with its series to 10⁻¹³
            // of S12 (up to 3 m²). Polygons' areas are within 0.1 m² (below).
            worstArea = max(worstArea, abs(solution.area - v[7]) / max(0.1, abs(v[7]) * 1e-13))
        }
        #expect(worstDistance < 15e-9, "worst distance error \(worstDistance) m")
        #expect(worstAzimuth < 1e-11, "worst azimuth error \(worstAzimuth)°")
        #expect(worstArea <= 1, "worst S12 error \(worstArea) times its tolerance")
    }

    @Test("The direct problem: positions within 1e-12° (0.1 µm) and azimuths within 1e-11° of GeodSolve (4,000 lines)")
    func direct() throws {
        let rows = try Self.rows("direct.tsv")
        #expect(rows.count == 4000)
        var worstPosition = 0.0
        var worstAzimuth = 0.0
        for v in rows {
            let line = GeodesicLine(.wgs84, latitude: v[0], longitude: v[1], azimuth: v[2])
            let (latitude, longitude, azimuth) = line.position(at: v[3])
            worstPosition = max(worstPosition, abs(latitude - v[4]))
            if abs(v[4]) < 89.9 { worstPosition = max(worstPosition, Self.angleError(longitude, v[5])) }
            if abs(v[4]) < 90 { worstAzimuth = max(worstAzimuth, Self.angleError(azimuth, v[6])) }
        }
        #expect(worstPosition < 1e-12, "worst position error \(worstPosition)°")
        #expect(worstAzimuth < 1e-11, "worst azimuth error \(worstAzimuth)°")
    }

    @Test(
        "Polygon areas within 0.1 m² of Planimeter: every size, around the poles, across the antimeridian (300 polygons)"
    )
    func polygonAreas() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("geodesic/polygons.tsv"), encoding: .utf8)
        var checked = 0
        var worst = 0.0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ";")
            guard let lastField = fields.last else { continue }
            let last = lastField.split(separator: " ")
            guard last.count == 3, let expected = Double(last[2]) else { continue }
            let pairs: [[Substring]] = fields.dropLast().map { $0.split(separator: " ") } + [Array(last.prefix(2))]
            let ring = Path(
                pairs.compactMap { pair -> Coordinate? in
                    guard pair.count == 2, let latitude = Double(pair[0]), let longitude = Double(pair[1]) else {
                        return nil
                    }
                    return Coordinate(latitude: latitude, longitude: longitude)
                })
            #expect(ring.count == fields.count)
            worst = max(worst, abs(Geodesic.wgs84.signedArea(ring) - expected))
            checked += 1
        }
        #expect(checked == 300)
        #expect(worst < 0.1, "worst area error \(worst) m²")
    }

    @Test("Corner cases: coincident points, both poles, exactly antipodal on the equator, a closed ring given twice")
    func corners() {
        let here = Coordinate(latitude: 12.5, longitude: -45)
        #expect(Geodesic.wgs84.inverse(here, here).distance == 0)
        let poles = Geodesic.wgs84.inverse(
            Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0))
        #expect(abs(poles.distance - 20_003_931.458_625_6) < 1e-6)  // the WGS84 meridian, pole to pole
        let antipodes = Geodesic.wgs84.inverse(
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 180))
        #expect(abs(antipodes.distance - 20_003_931.458_625_6) < 1e-6)  // over a pole, not round the equator
        let square: Path = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
            Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 0),
        ]
        var closed = square
        closed.append(Coordinate(latitude: 0, longitude: 0))
        #expect(Geodesic.wgs84.signedArea(square) == Geodesic.wgs84.signedArea(closed))
        #expect(Geodesic.wgs84.signedArea(Path(square.reversed())) == -Geodesic.wgs84.signedArea(square))
    }

    #if PROJ
    @Test(
        "Equal to PROJ's geod_inverse / geod_direct within 15 nm, S12 within 0.1 m² (1.5e-13 relative for nearly antipodal edges) and geod_polygonarea within 0.1 m² (100,000 pairs, 2,000 polygons)"
    )
    func sameAsPROJ() {
        var g = geod_geodesic()
        geod_init(&g, 6_378_137, 1 / 298.257223563)
        var random = SplitMix64(seed: 31)
        var worstDistance = 0.0
        var worstPosition = 0.0
        var worstArea = 0.0
        var worstEdgeArea = 0.0
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        for i in 0..<100_000 {
            var lat1 = uniform(-90...90)
            let lon1 = uniform(-180...180)
            var lat2 = uniform(-90...90)
            var lon2 = uniform(-180...180)
            switch i % 5 {
            case 1:  // nearly antipodal
                lat2 = max(-90, min(90, -lat1 + uniform(-0.01...0.01)))
                lon2 = lon1 + 180 + uniform(-0.01...0.01)
            case 2:  // polar
                lat1 = (i % 2 == 0 ? 1 : -1) * uniform(89...90)
                lat2 = (i % 4 == 2 ? 1 : -1) * uniform(85...90)
            case 3:  // short
                lat2 = max(-90, min(90, lat1 + uniform(-1e-3...1e-3)))
                lon2 = lon1 + uniform(-1e-3...1e-3)
            case 4:  // on or near the equator
                lat1 = uniform(-1e-6...1e-6)
                lat2 = uniform(-1e-6...1e-6)
            default:
                break
            }
            var s12 = 0.0
            var azi1 = 0.0
            var azi2 = 0.0
            var edgeArea = 0.0
            _ = geod_geninverse(&g, lat1, lon1, lat2, lon2, &s12, &azi1, &azi2, nil, nil, nil, &edgeArea)
            let ours = Geodesic.wgs84.solveInverse(lat1, lon1, lat2, lon2, area: true)
            worstDistance = max(worstDistance, abs(ours.distance - s12))
            // S12 per edge: 0.1 m², or 1.5 × 10⁻¹³ of S12 for a nearly antipodal edge (10¹³–10¹⁴
            // m², up to 14 m²; PROJ and GeographicLib's exact solution differ by up to 15 m² there).
            let edgeTolerance = i % 5 == 1 ? max(0.1, abs(edgeArea) * 1.5e-13) : 0.1
            worstEdgeArea = max(worstEdgeArea, abs(ours.area - edgeArea) / edgeTolerance)
            var plat2 = 0.0
            var plon2 = 0.0
            var pazi2 = 0.0
            geod_direct(&g, lat1, lon1, azi1, s12, &plat2, &plon2, &pazi2)
            let (latitude, longitude, _) = GeodesicLine(.wgs84, latitude: lat1, longitude: lon1, azimuth: azi1)
                .position(at: s12)
            worstPosition = max(worstPosition, abs(latitude - plat2))
            if abs(plat2) < 89.9 { worstPosition = max(worstPosition, Self.angleError(longitude, plon2)) }
        }
        for i in 0..<2_000 {
            let n = 3 + i % 4
            let lat = uniform(-85...85)
            let lon = uniform(-180...180)
            let size = [1e-4, 0.5, 10, 60][i % 4]
            var lats = (0..<n).map { _ in max(-90, min(90, lat + uniform(-size...size))) }
            var lons = (0..<n).map { _ in lon + uniform(-size...size) }
            var area = 0.0
            var perimeter = 0.0
            geod_polygonarea(&g, &lats, &lons, Int32(n), &area, &perimeter)
            let ring = Path(zip(lats, lons).map { Coordinate(latitude: $0.0, longitude: $0.1) })
            worstArea = max(worstArea, abs(Geodesic.wgs84.signedArea(ring) - area))
        }
        #expect(worstDistance < 15e-9, "worst distance difference \(worstDistance) m")
        #expect(worstPosition < 1.5e-13 * 10, "worst position difference \(worstPosition)°")
        #expect(worstArea < 0.1, "worst area difference \(worstArea) m²")
        #expect(worstEdgeArea <= 1, "worst S12 difference \(worstEdgeArea) times its tolerance")
    }
    #else
    @Test("Equal to PROJ's geod_* (needs the PROJ trait)", .disabled("built without the PROJ trait"))
    func sameAsPROJ() {}
    #endif
}
