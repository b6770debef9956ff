import GeoConvCore

/// Exact parsing of decimal numbers from bytes (KML coordinates, WKT), giving the `Double`
/// nearest the decimal — exactly what `strtod` gives — without allocating for ordinary
/// numbers. Accepts `[+-]digits[.digits][(e|E)[+-]digits]`, also `.5` and `5.`.
package enum DecimalParser {
    /// The number in `bytes`, or `nil` when the bytes are not exactly one decimal number.
    @inlinable
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return nil }
        var i = 0
        var negative = false
        if base[0] == UInt8(ascii: "-") || base[0] == UInt8(ascii: "+") {
            negative = base[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        var sawDigit = false
        while i < count, base[i] &- 48 < 10 {
            sawDigit = true
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(base[i] &- 48)
                if mantissa != 0 { digits += 1 }
            } else {
                exact = false
                exponent += 1
            }
            i += 1
        }
        if i < count, base[i] == UInt8(ascii: ".") {
            i += 1
            while i < count, base[i] &- 48 < 10 {
                sawDigit = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(base[i] &- 48)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else if base[i] != UInt8(ascii: "0") {
                    exact = false
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < count, base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < count, base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") {
                expNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < count, base[i] &- 48 < 10 else { return nil }
            var e = 0
            while i < count, base[i] &- 48 < 10 {
                if e < 100_000 { e = e &* 10 &+ Int(base[i] &- 48) }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        guard i == count else { return nil }
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= DecimalFormatter.powerOfTen(-exponent)
            } else {
                value *= DecimalFormatter.powerOfTen(exponent)
            }
            return negative ? -value : value
        }
        if mantissa == 0 && exact { return negative ? -0.0 : 0.0 }
        // Rare: more than 19 significant digits or a large exponent. The standard library's
        // parser is correctly rounded; it does not take "+5" or ".5", so normalise those.
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        return Double(text.replacingFirstDot())
    }
}

extension String {
    /// "-.5" → "-0.5", ".5" → "0.5", "5." → "5.0" (forms `Double(_:)` may refuse).
    @usableFromInline
    func replacingFirstDot() -> String {
        var text = self
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasPrefix("-.") { text = "-0." + text.dropFirst(2) }
        if let dot = text.firstIndex(of: "."),
            text.index(after: dot) == text.endIndex || !(text[text.index(after: dot)].isNumber)
        {
            text.insert("0", at: text.index(after: dot))
        }
        return text
    }
}
