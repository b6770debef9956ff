#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Angles in degrees handled the way Karney's algorithms need them: reduced exactly (a
/// multiple of 90° gives exactly 0 or ±1), differences without rounding error, and tiny
/// values rounded so that nearly-equal points become equal.
enum GeodesicAngles {
    static let degree = Double.pi / 180

    /// `u + v` and the rounding error of that sum (Knuth's TwoSum).
    @inline(__always)
    static func sum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, -(up + vpp))
    }

    /// `x` in [−180°, 180°].
    @inline(__always)
    static func normalized(_ x: Double) -> Double {
        let y = remainder(x, 360)
        return abs(y) == 180 ? copysign(180, x) : y
    }

    /// `y − x` in [−180°, 180°], and the error of that difference.
    static func difference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        var (d, t) = sum(remainder(-x, 360), remainder(y, 360))
        (d, t) = sum(remainder(d, 360), t)
        if d == 0 || abs(d) == 180 { d = copysign(d, t == 0 ? y - x : -t) }
        return (d, t)
    }

    /// `x` rounded so that values smaller than 1/16 keep about 52 bits after the binary point
    /// of 1/16: tiny differences become exact zeros instead of round-off.
    @inline(__always)
    static func rounded(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        y = y < z ? z - (z - y) : y
        return copysign(y, x)
    }

    /// sin and cos of `x` degrees, exact at multiples of 90°.
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }  // (NaN in, NaN out: never a trap)
        var r = fmod(x, 360)
        let q = Int((r / 90).rounded(.toNearestOrEven))
        r -= 90 * Double(q)  // −0 stays −0: the sign of a zero latitude decides sides below
        r *= degree
        let s = sin(r)
        let c = cos(r)
        var result: (Double, Double)
        switch q & 3 {
        case 0: result = (s, c)
        case 1: result = (c, -s)
        case 2: result = (-s, -c)
        default: result = (-c, s)
        }
        if x != 0 {  // no −0 but for x = −0
            result.0 += 0
            result.1 += 0
        }
        return result
    }

    /// atan2(y, x) in degrees, exact where the answer is a multiple of 90°.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var x = x
        var y = y
        var q = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            q = 2
        }
        if x.sign == .minus {
            x = -x
            q += 1
        }
        var angle = atan2(y, x) / degree
        switch q {
        case 1: angle = (y >= 0 ? 180 : -180) - angle
        case 2: angle = 90 - angle
        case 3: angle = -90 + angle
        default: break
        }
        return angle
    }

    /// `x` when it is greater than 0, else +0 (`max(0, −0)` would be −0, which turns
    /// atan2(±0, −1) from π into −π).
    @inline(__always)
    static func positive(_ x: Double) -> Double { x > 0 ? x : 0 }

    /// (x, y) scaled to unit length.
    @inline(__always)
    static func normalize(_ x: inout Double, _ y: inout Double) {
        let r = hypot(x, y)
        x /= r
        y /= r
    }
}
