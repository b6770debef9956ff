#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The inverse problem's parts: λ₁₂ as a function of α₁ (and its derivative, eq. 46), and
/// the first α₁ (§5).
extension Geodesic {
    /// λ₁₂(α₁) − λ₁₂ and what the solution needs from the last evaluation.
    struct Lambda12 {
        var lam12: Double
        var salp2: Double, calp2: Double
        var sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
        var domg12: Double
        var dlam12: Double
    }

    /// Follows the geodesic leaving β₁ at α₁ to β₂ (eq. 5–11) and gives how far its longitude
    /// there is from λ₁₂ (eq. 8 and 23), with dλ₁₂/dα₁ (eq. 46) when `derivative`.
    func lambda12(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double, _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ salp1: Double, _ calp1In: Double, _ slam120: Double, _ clam120: Double,
        derivative: Bool
    ) -> Lambda12 {
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 { calp1 = -Self.tiny }  // break the degeneracy of equatorial lines
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)  // α₀, eq. (10)
        // σ₁ and ω₁ (eq. 11–12).
        var ssig1 = sbet1
        var csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        GeodesicAngles.normalize(&ssig1, &csig1)
        // α₂ from Clairaut's relation; cos α₂ without cancellation (eq. 45).
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let difference = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + difference).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2
        var csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2
        let comg2 = calp2 * cbet2
        GeodesicAngles.normalize(&ssig2, &csig2)
        let sig12 = atan2(GeodesicAngles.positive(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let somg12 = GeodesicAngles.positive(comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ − λ₁₂ (given), without rounding the two apart.
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = Self.epsilon(k2)
        let c = SeriesCoefficients(c3, first: 1, eps: eps)
        let b312 = c.sineSeries(sin: ssig2, cos: csig2) - c.sineSeries(sin: ssig1, cos: csig1)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)  // λ₁₂ − ω₁₂, eq. (23)
        var dlam12 = 0.0
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = lengths(eps, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2).m12b
                dlam12 = m12b * f1 / (calp2 * cbet2)
            }
        }
        return Lambda12(
            lam12: eta + domg12, salp2: salp2, calp2: calp2, sig12: sig12, ssig1: ssig1, csig1: csig1,
            ssig2: ssig2, csig2: csig2, eps: eps, domg12: domg12, dlam12: dlam12)
    }

    /// The first α₁ for Newton's method. For short lines (a few hundred km at most) the
    /// start is accurate enough to be the answer: `sig12` ≥ 0 then, with α₂ and the mean `dnm`.
    struct InverseStart {
        var sig12: Double
        var salp1: Double, calp1: Double
        var salp2: Double, calp2: Double
        var dnm: Double
    }

    func inverseStart(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double, _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ lam12: Double, _ slam12: Double, _ clam12: Double
    ) -> InverseStart {
        var start = InverseStart(sig12: -1, salp1: 0, calp1: 0, salp2: .nan, calp2: .nan, dnm: .nan)
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1  // sin(β₂ − β₁)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β₂ + β₁)
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double
        var comg12: Double
        if shortline {
            // ω₁₂ on a sphere with the mean radius of curvature of the points (eq. 55).
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            start.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * start.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        // α₁ on the sphere (eq. 56).
        start.salp1 = cbet2 * somg12
        start.calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(start.salp1, start.calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortline && ssig12 < etol2 {
            // Really short: α₂ (eq. 57) and σ₁₂ on the sphere are the answer.
            start.salp2 = cbet1 * somg12
            start.calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            GeodesicAngles.normalize(&start.salp2, &start.calp2)
            start.sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 || f < 0 {
            // The spherical α₁ is good enough a start (and Newton's method, bracketed by
            // bisection, copes with prolate ellipsoids' antipodes from there).
        } else {
            // Nearly antipodal: scale to the astroid problem (§5, eq. 53–55).
            let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
            let k2 = sbet1 * sbet1 * ep2
            let lamscale = f * cbet1 * a3(Self.epsilon(k2)) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                // Too close to the bifurcation point on the equator for the astroid: α₁ from x.
                start.salp1 = min(1, -x)
                start.calp1 = -(1 - start.salp1 * start.salp1).squareRoot()
            } else {
                let k = Self.astroid(x, y)
                let omg12a = lamscale * -x * k / (1 + k)
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                start.salp1 = cbet2 * somg12
                start.calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(start.salp1 <= 0) {
            GeodesicAngles.normalize(&start.salp1, &start.calp1)
        } else {
            start.salp1 = 1
            start.calp1 = 0
        }
        return start
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (eq. 55), solved in
    /// closed form as the paper's appendix does.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        let disc = s * (s + 2 * r3)  // the discriminant of the cubic for u
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()  // no cancellation
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v  // u + v, without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}
