/// Decimal text for coordinates and numbers, shared by every writer so that all formats
/// print the same digits.
package enum DecimalFormatter {
    /// The shortest plain decimal that reads back as exactly `value` (no exponent for the
    /// magnitudes coordinates have; the sign of zero is kept: `-0.0` prints as `-0`).
    package static func shortest(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        let text = value.description
        guard text.utf8.contains(UInt8(ascii: "e")) else {
            // Swift prints integral doubles as "12.0": drop the ".0".
            if text.hasSuffix(".0") { return String(text.dropLast(2)) }
            return text
        }
        return expandExponent(text)
    }

    /// `value` rounded half away from zero to `digits` decimals, trailing zeros removed.
    package static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite, value != 0 else { return shortest(value) }
        let scale = powerOfTen(digits)
        let scaled = value * scale
        guard abs(scaled) < 9.0e15 else { return shortest(value) }
        let rounded = (scaled < 0 ? -(-scaled + 0.5).rounded(.down) : (scaled + 0.5).rounded(.down)) / scale
        return shortest(rounded)
    }

    /// Appends `value` in the shortest plain decimal that reads back exactly (as `shortest`),
    /// without allocating for the common case of up to 15 significant digits.
    @inlinable
    package static func appendShortest(_ value: Double, to out: inout [UInt8]) {
        if value == 0 {
            if value.sign == .minus { out.append(UInt8(ascii: "-")) }  // -0.0 stays -0 (Greenwich data, bit-identical)
            out.append(UInt8(ascii: "0"))
            return
        }
        let magnitude = abs(value)
        if magnitude.isFinite, magnitude >= 1e-7, magnitude < 1e15 {
            // Fast path: round to 15 significant digits, drop trailing zeros, and check with one
            // exact division that the result reads back. A double whose shortest form has at
            // most 15 significant digits always passes.
            var integerDigits = 0
            while integerDigits < 15 && magnitude >= powerOfTen(integerDigits) { integerDigits += 1 }
            var decimals = 15 - integerDigits
            var m = Int64(magnitude * powerOfTen(decimals) + 0.5)
            if decimals >= 8 && m % 100_000_000 == 0 {
                m /= 100_000_000
                decimals -= 8
            }
            if decimals >= 4 && m % 10_000 == 0 {
                m /= 10_000
                decimals -= 4
            }
            if decimals >= 2 && m % 100 == 0 {
                m /= 100
                decimals -= 2
            }
            if decimals >= 1 && m % 10 == 0 {
                m /= 10
                decimals -= 1
            }
            if Double(m) / powerOfTen(decimals) == magnitude {
                appendDecimal(UInt64(m), decimals: decimals, negative: value < 0, to: &out)
                return
            }
            // Otherwise the fewest decimals whose decimal reads back as `magnitude`. Success
            // is monotonic in the number of decimals, so a binary search finds it.
            @inline(__always) func fits(_ decimals: Int) -> UInt64? {
                let scale = powerOfTen(decimals)
                let scaled = magnitude * scale
                guard scaled < 9.0e15 else { return nil }
                let m = UInt64(scaled + 0.5)
                return Double(m) / scale == magnitude ? m : nil
            }
            var high = 15
            while high > 0, magnitude * powerOfTen(high) >= 9.0e15 { high -= 1 }
            if var best = fits(high) {
                var bestDecimals = high
                var low = 0
                var top = high - 1
                while low <= top {
                    let middle = (low + top) / 2
                    if let m = fits(middle) {
                        best = m
                        bestDecimals = middle
                        top = middle - 1
                    } else {
                        low = middle + 1
                    }
                }
                appendDecimal(best, decimals: bestDecimals, negative: value < 0, to: &out)
                return
            }
        }
        out.append(contentsOf: shortest(value).utf8)
    }

    /// Appends `position` as `longitude,latitude` and `,altitude` when it has one, each as
    /// `append(_:digits:to:)` writes it: a GeoJSON position's inside, a KML coordinate tuple.
    @inlinable
    package static func appendPosition(_ position: Coordinate, digits: Int?, to out: inout [UInt8]) {
        append(position.longitude, digits: digits, to: &out)
        out.append(UInt8(ascii: ","))
        append(position.latitude, digits: digits, to: &out)
        if let altitude = position.altitude {
            out.append(UInt8(ascii: ","))
            append(altitude, digits: digits, to: &out)
        }
    }

    /// Appends `value` with `digits` decimals (`appendFixed`), or in its shortest exact form
    /// when `digits` is `nil` (`appendShortest`): the writers' `--precision`.
    @inlinable
    package static func append(_ value: Double, digits: Int?, to out: inout [UInt8]) {
        if let digits {
            appendFixed(value, digits: digits, to: &out)
        } else {
            appendShortest(value, to: &out)
        }
    }

    /// Appends `value` rounded half away from zero to `digits` decimals, trailing zeros removed.
    @inlinable
    package static func appendFixed(_ value: Double, digits: Int, to out: inout [UInt8]) {
        if value == 0 {
            appendShortest(value, to: &out)  // 0 or -0: a value that rounds to zero keeps no sign, -0.0 does
            return
        }
        let scale = powerOfTen(digits)
        let scaled = abs(value) * scale
        guard value.isFinite, scaled < 9.0e15, digits <= 15 else {
            out.append(contentsOf: fixed(value, digits: digits).utf8)
            return
        }
        let m = UInt64(scaled + 0.5)
        appendDecimal(m, decimals: digits, negative: value < 0 && m != 0, to: &out)
    }

    /// Appends the decimal `m × 10^-decimals`, trailing fraction zeros removed.
    @inlinable
    package static func appendDecimal(_ m: UInt64, decimals: Int, negative: Bool, to out: inout [UInt8]) {
        var m = m
        var decimals = decimals
        while decimals > 0 && m != 0 && m % 10 == 0 {
            m /= 10
            decimals -= 1
        }
        if m == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        // Up to 20 digits, a point, leading "0." and zeros (decimals ≤ 22): 48 bytes, filled backwards.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var index = buffer.count
            var rest = m
            var written = 0
            while written < decimals {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
                written += 1
            }
            if decimals > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: ".")
            }
            repeat {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            } while rest > 0
            if negative {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// 10^n for 0 ≤ n ≤ 22, exact in `Double`.
    @inlinable @inline(__always)
    package static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case ...0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// Rewrites Swift's `1.5e-05` / `1e+16` as `0.000015` / `10000000000000000`.
    static func expandExponent(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes.removeFirst()
        }
        guard let e = bytes.firstIndex(of: UInt8(ascii: "e")),
            let exponent = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self))
        else { return text }
        let mantissa = bytes[..<e]
        var digits: [UInt8] = []
        var pointPosition = 0
        var seenPoint = false
        for b in mantissa {
            if b == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
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
