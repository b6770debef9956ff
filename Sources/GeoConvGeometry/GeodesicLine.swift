#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The direct problem, Karney (2013) §3: the geodesic leaving a point at an azimuth, and
/// the point a distance along it. The distance becomes the arc length σ on the auxiliary
/// sphere through the reverted series (eq. 20–21), and σ the latitude, longitude and
/// azimuth there (eq. 5–8, 23).
struct GeodesicLine {
    /// The ellipsoid's b, f and 1 − f (held, not the `Geodesic`, whose tables would be retained per line).
    private let b: Double, f: Double, f1: Double
    private let longitude1: Double
    private let salp0: Double, calp0: Double, k2: Double
    private let ssig1: Double, csig1: Double, somg1: Double, comg1: Double
    private let stau1: Double, ctau1: Double
    private let a1m1: Double, b11: Double, a3c: Double, b31: Double
    /// C₁ₗ, C′₁ₗ and C₃ₗ for this geodesic's ε.
    private let c1: SeriesCoefficients, c1Reverted: SeriesCoefficients, c3: SeriesCoefficients

    init(_ geodesic: Geodesic, latitude: Double, longitude: Double, azimuth: Double) {
        (b, f, f1) = (geodesic.b, geodesic.f, geodesic.f1)
        longitude1 = longitude
        let (salp1, calp1) = GeodesicAngles.sinCos(GeodesicAngles.rounded(GeodesicAngles.normalized(azimuth)))
        var (sbet1, cbet1) = GeodesicAngles.sinCos(GeodesicAngles.rounded(abs(latitude) > 90 ? .nan : latitude))
        sbet1 *= geodesic.f1
        GeodesicAngles.normalize(&sbet1, &cbet1)
        cbet1 = max(Geodesic.tiny, cbet1)
        salp0 = salp1 * cbet1
        calp0 = hypot(calp1, salp1 * sbet1)
        // σ₁ and ω₁ (eq. 11–12); a geodesic from a pole going north has σ₁ = ω₁ = 0.
        var ssig1 = sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        somg1 = salp0 * sbet1
        comg1 = csig1
        GeodesicAngles.normalize(&ssig1, &csig1)
        self.ssig1 = ssig1
        self.csig1 = csig1
        k2 = calp0 * calp0 * geodesic.ep2
        let eps = Geodesic.epsilon(k2)
        a1m1 = Geodesic.a1Minus1(eps)
        c1 = SeriesCoefficients(SeriesTable.c1, first: 1, eps: eps)
        b11 = c1.sineSeries(sin: ssig1, cos: csig1)
        let s = sin(b11)
        let c = cos(b11)
        // τ₁ = σ₁ + B₁₁ (eq. 15)
        stau1 = ssig1 * c + csig1 * s
        ctau1 = csig1 * c - ssig1 * s
        c1Reverted = SeriesCoefficients(SeriesTable.c1Reverted, first: 1, eps: eps)
        a3c = -geodesic.f * salp0 * geodesic.a3(eps)
        c3 = SeriesCoefficients(geodesic.c3, first: 1, eps: eps)
        b31 = c3.sineSeries(sin: ssig1, cos: csig1)
    }

    /// Latitude, longitude and azimuth (degrees) `distance` metres along the line; the
    /// azimuth is NaN unless `withAzimuth` (one `atan2` fewer for a destination alone).
    @inline(__always)
    func position(
        at distance: Double, withAzimuth: Bool = true
    ) -> (latitude: Double, longitude: Double, azimuth: Double) {
        // τ₁₂ = s₁₂ / (b A₁), then σ₁₂ from the reverted series (eq. 20).
        let tau12 = distance / (b * (1 + a1m1))
        let s = sin(tau12)
        let c = cos(tau12)
        let b12 = -c1Reverted.sineSeries(sin: stau1 * c + ctau1 * s, cos: ctau1 * c - stau1 * s)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12)
        var csig12 = cos(sig12)
        if abs(f) > 0.01 {
            // One Newton step on σ₁₂ where the reverted series is not accurate enough.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            let b12 = c1.sineSeries(sin: ssig2, cos: csig2)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - distance / b
            sig12 -= serr / (1 + k2 * ssig2 * ssig2).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }
        // σ₂ = σ₁ + σ₁₂
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            cbet2 = Geodesic.tiny  // at a pole
            csig2 = Geodesic.tiny
        }
        let salp2 = salp0
        let calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2
        let comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let b32 = c3.sineSeries(sin: ssig2, cos: csig2)
        let lam12 = omg12 + a3c * (sig12 + (b32 - b31))
        let lon12 = lam12 / GeodesicAngles.degree
        let longitude = GeodesicAngles.normalized(
            GeodesicAngles.normalized(longitude1) + GeodesicAngles.normalized(lon12))
        let latitude = GeodesicAngles.atan2Degrees(sbet2, f1 * cbet2)
        return (latitude, longitude, withAzimuth ? GeodesicAngles.atan2Degrees(salp2, calp2) : .nan)
    }
}
