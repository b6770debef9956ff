public import GeoConvCore

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Geodesics on an ellipsoid of revolution: the inverse problem (distance and azimuths
/// between two points), the direct problem (the point at a distance and azimuth) and the
/// area under a geodesic edge, in Swift, following Karney, "Algorithms for geodesics",
/// J. Geodesy 87, 43–55 (2013), doi:10.1007/s00190-012-0578-z: series to sixth order in
/// the flattening (`GeodesicSeries`), Newton's method on the azimuth for the inverse problem
/// started from the paper's approximations (the astroid for nearly antipodal points), and
/// Clenshaw summation.
///
/// Accuracy, as the paper states for these series: about 15 nanometres in distance and
/// 0.1 m² in area for WGS84, for any pair of points including nearly antipodal and polar
/// ones. The series assume a small flattening; beyond |f| ≈ 1/50 accuracy degrades.
public struct Geodesic: Sendable {
    /// WGS84: a = 6,378,137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    let a: Double, f: Double
    /// 1 − f, e², e′², n, b, and c² (the authalic radius squared: the area of the ellipsoid / 4π).
    let f1: Double, e2: Double, ep2: Double, n: Double, b: Double, c2: Double
    let etol2: Double
    /// A₃, C₃ₗ and C₄ₗ with this ellipsoid's n put in: polynomials in ε.
    let a3: [Double]
    let c3: SeriesTable
    let c4: SeriesTable

    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10

    /// An ellipsoid from its equatorial radius (metres) and flattening.
    public init(equatorialRadius: Double, flattening: Double) {
        a = equatorialRadius
        f = flattening
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        let e = abs(e2).squareRoot()
        let authalic = e2 == 0 ? 1 : (e2 > 0 ? atanh(e) : atan(e)) / e
        c2 = (a * a + b * b * authalic) / 2
        etol2 = 0.1 * Self.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        let n = n
        a3 = GeodesicSeries.fixing(n: n, in: GeodesicSeries.a3, from: 0)
        c3 = SeriesTable(
            GeodesicSeries.c3.enumerated().map { GeodesicSeries.fixing(n: n, in: $0.element, from: $0.offset + 1) })
        c4 = SeriesTable(
            GeodesicSeries.c4.enumerated().map { GeodesicSeries.fixing(n: n, in: $0.element, from: $0.offset) })
    }

    /// The distance in metres between two points, and the forward azimuths (degrees) at each.
    public func inverse(
        _ from: Coordinate, _ to: Coordinate
    ) -> (distance: Double, initialBearing: Double, finalBearing: Double) {
        let solution = solveInverse(from.latitude, from.longitude, to.latitude, to.longitude, area: false)
        return (solution.distance, solution.azimuth1, solution.azimuth2)
    }

    /// The point `distance` metres from `from` along the geodesic leaving at `bearing` degrees.
    public func destination(from: Coordinate, distance: Double, bearing: Double) -> Coordinate {
        let line = GeodesicLine(self, latitude: from.latitude, longitude: from.longitude, azimuth: bearing)
        let (latitude, longitude, _) = line.position(at: distance, withAzimuth: false)
        return Coordinate(latitude: latitude, longitude: longitude, altitude: from.altitude)
    }

    // MARK: The series for one geodesic (ε)

    /// ε from k² = e′² cos² α₀ (the paper's eq. 16).
    @inline(__always)
    static func epsilon(_ k2: Double) -> Double { k2 / (2 * (1 + (1 + k2).squareRoot()) + k2) }

    /// A₁ − 1 = (t + ε)/(1 − ε), t the numerator's terms after its 1.
    @inline(__always)
    static func a1Minus1(_ eps: Double) -> Double {
        (GeodesicSeries.polynomial(GeodesicSeries.a1, at: eps) + eps) / (1 - eps)
    }

    /// A₂ − 1 = (t − ε)/(1 + ε).
    @inline(__always)
    static func a2Minus1(_ eps: Double) -> Double {
        (GeodesicSeries.polynomial(GeodesicSeries.a2, at: eps) - eps) / (1 + eps)
    }

    @inline(__always)
    func a3(_ eps: Double) -> Double { GeodesicSeries.polynomial(a3, at: eps) }
}
