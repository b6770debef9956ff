#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The inverse problem, Karney (2013) §4–§5: put the points on the auxiliary sphere, start
/// from the approximations of §5 (the short-line one, eq. 55–57, or the astroid of
/// eq. 55–56 for nearly antipodal points), and solve λ₁₂(α₁) = λ₁₂ by Newton's method
/// (eq. 46), bisecting when a step leaves the bracket.
extension Geodesic {
    typealias AngleMath = GeodesicAngles

    /// What the inverse problem gives: s₁₂ (m), α₁ and α₂ (degrees), and S₁₂, the area
    /// between the geodesic and the equator (m², when asked for).
    struct InverseSolution {
        var distance: Double
        var azimuth1: Double
        var azimuth2: Double
        var area: Double
    }

    /// The inverse problem between (lat1, lon1) and (lat2, lon2), degrees.
    func solveInverse(
        _ lat1In: Double, _ lon1: Double, _ lat2In: Double, _ lon2: Double, area wantsArea: Bool
    ) -> InverseSolution {
        // Longitude difference, made positive; the points swapped so that |lat1| ≥ |lat2|, and
        // the signs flipped so that lat1 ≤ 0.
        var (lon12, lon12s) = AngleMath.difference(lon1, lon2)
        var lonsign: Double = lon12 >= 0 ? 1 : -1
        lon12 = lonsign * AngleMath.rounded(lon12)
        lon12s = AngleMath.rounded((180 - lon12) - lonsign * lon12s)
        let lam12 = lon12 * AngleMath.degree
        var slam12: Double
        var clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = AngleMath.sinCos(lon12s)
            clam12 = -clam12
        } else {
            (slam12, clam12) = AngleMath.sinCos(lon12)
        }
        var lat1 = AngleMath.rounded(abs(lat1In) > 90 ? .nan : lat1In)
        var lat2 = AngleMath.rounded(abs(lat2In) > 90 ? .nan : lat2In)
        let swapp: Double = abs(lat1) < abs(lat2) ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1 < 0 ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        // Reduced latitudes β on the auxiliary sphere.
        var (sbet1, cbet1) = AngleMath.sinCos(lat1)
        sbet1 *= f1
        AngleMath.normalize(&sbet1, &cbet1)
        cbet1 = max(Self.tiny, cbet1)
        var (sbet2, cbet2) = AngleMath.sinCos(lat2)
        sbet2 *= f1
        AngleMath.normalize(&sbet2, &cbet2)
        cbet2 = max(Self.tiny, cbet2)
        // Points on the same parallel (or opposite ones) get exactly the same β.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2 < 0 ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var sig12 = 0.0
        var s12x = 0.0
        var omg12 = 0.0
        var somg12 = 2.0
        var comg12 = 0.0  // somg12 = 2: not computed
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Along a meridian: α₁ = λ₁₂ (0 or 180°), α₂ = 0.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1
            let csig1 = calp1 * cbet1
            let ssig2 = sbet2
            let csig2 = calp2 * cbet2
            sig12 = atan2(GeodesicAngles.positive(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let lengths = self.lengths(n, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
            s12x = lengths.s12b
            let m12x = lengths.m12b  // the reduced length: negative past a conjugate point
            // A meridian is the shortest path unless the points are nearly antipodal (m12 < 0).
            if sig12 < 1 || m12x >= 0 {
                if sig12 < 3 * Self.tiny || (sig12 < Self.tol0 && (s12x < 0 || m12x < 0)) { s12x = 0 }
                s12x *= b
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator (when the shortest path is: not for nearly antipodal points).
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
            sig12 = lam12 / f1
            omg12 = sig12
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            sig12 = start.sig12
            salp1 = start.salp1
            calp1 = start.calp1
            if sig12 >= 0 {
                // A short line: the start is the answer.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = sig12 * b * start.dnm
                omg12 = lam12 / (f1 * start.dnm)
            } else {
                var ssig1 = 0.0
                var csig1 = 0.0
                var ssig2 = 0.0
                var csig2 = 0.0
                var eps = 0.0
                var domg12 = 0.0
                // The bracket [α₁a, α₁b] holding the solution, narrowed as Newton goes.
                var salp1a = Self.tiny
                var calp1a = 1.0
                var salp1b = Self.tiny
                var calp1b = -1.0
                var tripn = false
                var tripb = false
                var iteration = 0
                while iteration < Self.maxit2 {
                    let step = lambda12(
                        sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12,
                        derivative: iteration < Self.maxit1)
                    salp2 = step.salp2
                    calp2 = step.calp2
                    sig12 = step.sig12
                    ssig1 = step.ssig1
                    csig1 = step.csig1
                    ssig2 = step.ssig2
                    csig2 = step.csig2
                    eps = step.eps
                    domg12 = step.domg12
                    let v = step.lam12
                    // 2 tol0 is about one ulp of a number in [0, π]; the test reads the other
                    // way round so that a NaN ends the loop.
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * Self.tol0) { break }
                    if v > 0 && (iteration > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (iteration > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    iteration += 1
                    if iteration <= Self.maxit1 && step.dlam12 > 0 {
                        let dalp1 = -v / step.dlam12
                        let sdalp1 = sin(dalp1)
                        let cdalp1 = cos(dalp1)
                        let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                        if nsalp1 > 0 && abs(dalp1) < .pi {
                            calp1 = calp1 * cdalp1 - salp1 * sdalp1
                            salp1 = nsalp1
                            AngleMath.normalize(&salp1, &calp1)
                            tripn = abs(v) <= 16 * Self.tol0
                            continue
                        }
                    }
                    // Bisection, when Newton's step leaves the bracket or is not to be trusted.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    AngleMath.normalize(&salp1, &calp1)
                    tripn = false
                    tripb =
                        abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
                }
                let lengths = self.lengths(eps, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
                s12x = lengths.s12b * b
                if wantsArea {
                    // ω₁₂ = λ₁₂ − Δω₁₂
                    let sdomg12 = sin(domg12)
                    let cdomg12 = cos(domg12)
                    somg12 = slam12 * cdomg12 - clam12 * sdomg12
                    comg12 = clam12 * cdomg12 + slam12 * sdomg12
                }
            }
        }

        var area = 0.0
        if wantsArea {
            area = edgeArea(
                sbet1, cbet1, sbet2, cbet2, salp1, calp1, salp2, calp2,
                meridian: meridian, omg12: omg12, somg12: somg12, comg12: comg12)
            area *= swapp * lonsign * latsign
            area += 0
        }

        // Back to the points as given.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return InverseSolution(
            distance: 0 + s12x, azimuth1: AngleMath.atan2Degrees(salp1, calp1),
            azimuth2: AngleMath.atan2Degrees(salp2, calp2), area: area)
    }

    /// S₁₂ for one edge (eq. 58–61, with eq. 62 for α₁₂ on short edges): the area between the
    /// geodesic and the equator, clockwise positive, for the points as swapped above.
    private func edgeArea(
        _ sbet1: Double, _ cbet1: Double, _ sbet2: Double, _ cbet2: Double,
        _ salp1: Double, _ calp1: Double, _ salp2: Double, _ calp2: Double,
        meridian: Bool, omg12: Double, somg12 somg12In: Double, comg12 comg12In: Double
    ) -> Double {
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var s12 = 0.0
        if calp0 != 0 && salp0 != 0 {
            var ssig1 = sbet1
            var csig1 = calp1 * cbet1
            var ssig2 = sbet2
            var csig2 = calp2 * cbet2
            let k2 = calp0 * calp0 * ep2
            let eps = Self.epsilon(k2)
            let a4 = a * a * calp0 * salp0 * e2
            AngleMath.normalize(&ssig1, &csig1)
            AngleMath.normalize(&ssig2, &csig2)
            let c = SeriesCoefficients(c4, first: 0, eps: eps)
            let b41 = c.cosineSeries(sin: ssig1, cos: csig1)
            let b42 = c.cosineSeries(sin: ssig2, cos: csig2)
            s12 = a4 * (b42 - b41)
        }
        var somg12 = somg12In
        var comg12 = comg12In
        if !meridian && somg12 > 1 {
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }
        let alp12: Double
        if !meridian && comg12 > -0.7071 && sbet2 - sbet1 < 1.75 {
            // α₂ − α₁ from eq. (62), accurate for short edges.
            let domg12 = 1 + comg12
            let dbet1 = 1 + cbet1
            let dbet2 = 1 + cbet2
            alp12 = 2 * atan2(somg12 * (sbet1 * dbet2 + sbet2 * dbet1), domg12 * (sbet1 * sbet2 + dbet1 * dbet2))
        } else {
            var salp12 = salp2 * calp1 - calp2 * salp1
            var calp12 = calp2 * calp1 + salp2 * salp1
            if salp12 == 0 && calp12 < 0 {
                salp12 = Self.tiny * calp1
                calp12 = -1
            }
            alp12 = atan2(salp12, calp12)
        }
        return s12 + c2 * alp12
    }

    /// s₁₂/b and the reduced length m₁₂/b (eq. 38–42) for σ₁₂ on the geodesic with ε.
    func lengths(
        _ eps: Double, _ sig12: Double, _ ssig1: Double, _ csig1: Double, _ dn1: Double,
        _ ssig2: Double, _ csig2: Double, _ dn2: Double
    ) -> (s12b: Double, m12b: Double) {
        let a1 = Self.a1Minus1(eps)
        let a2 = Self.a2Minus1(eps)
        let c1 = SeriesCoefficients(SeriesTable.c1, first: 1, eps: eps)
        let b1 = c1.sineSeries(sin: ssig2, cos: csig2) - c1.sineSeries(sin: ssig1, cos: csig1)
        let c2 = SeriesCoefficients(SeriesTable.c2, first: 1, eps: eps)
        let b2 = c2.sineSeries(sin: ssig2, cos: csig2) - c2.sineSeries(sin: ssig1, cos: csig1)
        let m0x = a1 - a2
        let s12b = (1 + a1) * (sig12 + b1)
        let j12 = m0x * sig12 + ((1 + a1) * b1 - (1 + a2) * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }
}
