/// Decimal text for coordinates and numbers, shared by every writer so that all formats
/// print the same digits.
public enum DecimalFormatter {
    /// The shortest plain decimal that reads back as exactly `value` (no exponent for the
    /// magnitudes coordinates have; `-0` prints as `0`).
    public static func shortest(_ value: Double) -> String {
        if value == 0 { return "0" }
        let text = value.description
        guard text.utf8.contains(UInt8(ascii: "e")) else {
            // Swift prints integral doubles as "12.0": drop the ".0".
            if text.hasSuffix(".0") { return String(text.dropLast(2)) }
            return text
        }
        return expandExponent(text)
    }

    /// `value` rounded half away from zero to `digits` decimals, trailing zeros removed.
    public static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return shortest(value) }
        let scale = powerOfTen(digits)
        let scaled = value * scale
        guard abs(scaled) < 9.0e15 else { return shortest(value) }
        let rounded = (scaled < 0 ? -(-scaled + 0.5).rounded(.down) : (scaled + 0.5).rounded(.down)) / scale
        return shortest(rounded)
    }

    /// 10^n for 0 ≤ n ≤ 22, exact in `Double`.
    public static func powerOfTen(_ n: Int) -> Double {
        let table: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]
        return table[max(0, min(n, 22))]
    }

    /// Rewrites Swift's `1.5e-05` / `1e+16` as `0.000015` / `10000000000000000`.
    static func expandExponent(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes.removeFirst() }
        guard let e = bytes.firstIndex(of: UInt8(ascii: "e")),
              let exponent = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self))
        else { return text }
        let mantissa = bytes[..<e]
        var digits: [UInt8] = []
        var pointPosition = 0
        var seenPoint = false
        for b in mantissa {
            if b == UInt8(ascii: ".") { seenPoint = true; continue }
            digits.append(b)
            if !seenPoint { pointPosition += 1 }
        }
        while digits.count > 1, digits.last == UInt8(ascii: "0"), digits.count > pointPosition { digits.removeLast() }
        let newPoint = pointPosition + exponent
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if newPoint <= 0 {
            out += Array("0.".utf8) + Array(repeating: UInt8(ascii: "0"), count: -newPoint) + digits
        } else if newPoint >= digits.count {
            out += digits + Array(repeating: UInt8(ascii: "0"), count: newPoint - digits.count)
        } else {
            out += digits[..<newPoint] + [UInt8(ascii: ".")] + digits[newPoint...]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
