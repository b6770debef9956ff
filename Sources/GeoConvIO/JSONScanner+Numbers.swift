package import GeoConvCore

/// Numbers: JSON's grammar checked as the bytes pass, values parsed to exactly the `Double`
/// `strtod` gives, literals kept as text.
extension JSONScanner {
    /// Scans a number's bytes, checking JSON's grammar; returns the window range.
    @inline(__always) func scanNumber() throws(GeoConvError) -> Range<Int> {
        let start = position
        var i = position
        @inline(__always) func byte() throws(GeoConvError) -> UInt8? {
            if i < end { return storage[i] }
            guard try refill() else { return nil }
            return storage[i]
        }
        @inline(__always) func isDigit(_ b: UInt8?) -> Bool { b.map { $0 &- 48 < 10 } ?? false }
        if try byte() == UInt8(ascii: "-") { i += 1 }
        guard isDigit(try byte()) else {
            position = i
            throw error(
                "invalid number: expected a digit, found \(try describeNext())",
                hint: "JSON numbers are like -12.5e3; NaN, Infinity and a lone '-' are not allowed")
        }
        if try byte() == UInt8(ascii: "0") {
            i += 1
            if isDigit(try byte()) {
                position = i
                throw error("invalid number: leading zero", hint: "write 12, not 012")
            }
        } else {
            while isDigit(try byte()) { i += 1 }
        }
        if try byte() == UInt8(ascii: ".") {
            i += 1
            guard isDigit(try byte()) else {
                position = i
                throw error("invalid number: expected a digit after '.'")
            }
            while isDigit(try byte()) { i += 1 }
        }
        if let e = try byte(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            if let s = try byte(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard isDigit(try byte()) else {
                position = i
                throw error("invalid number: expected a digit in the exponent")
            }
            while isDigit(try byte()) { i += 1 }
        }
        position = i
        return start..<i
    }

    /// Parses a number to the nearest `Double` (exactly what `strtod` gives), checking JSON's
    /// grammar in the same pass. Numbers too large for a `Double` (`1e999`) are an error.
    @inline(__always) package func parseDouble() throws(GeoConvError) -> Double {
        // Single pass over the window: grammar, mantissa and exponent together. The window
        // never moves while a value is parsed, so indices stay valid across refills.
        let start = position
        var i = position
        @inline(__always) func byte() throws(GeoConvError) -> UInt8 {
            if i < end { return storage[i] }
            guard try refill() else { return 0 }
            return storage[i]
        }
        var negative = false
        var b = try byte()
        if b == UInt8(ascii: "-") {
            negative = true
            i += 1
            b = try byte()
        }
        guard b &- 48 < 10 else {
            position = i
            throw error(
                "invalid number: expected a digit, found \(try describeNext())",
                hint: "JSON numbers are like -12.5e3; NaN, Infinity and a lone '-' are not allowed")
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        if b == UInt8(ascii: "0") {
            i += 1
            b = try byte()
            if b &- 48 < 10 {
                position = i
                throw error("invalid number: leading zero", hint: "write 12, not 012")
            }
        } else {
            repeat {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(b &- 48)
                    digits += 1
                } else {
                    exact = false
                    exponent += 1
                }
                i += 1
                b = try byte()
            } while b &- 48 < 10
        }
        if b == UInt8(ascii: ".") {
            i += 1
            b = try byte()
            guard b &- 48 < 10 else {
                position = i
                throw error("invalid number: expected a digit after '.'")
            }
            repeat {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(b &- 48)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else if b != UInt8(ascii: "0") {
                    exact = false
                }
                i += 1
                b = try byte()
            } while b &- 48 < 10
        }
        if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            i += 1
            b = try byte()
            var expNegative = false
            if b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
                expNegative = b == UInt8(ascii: "-")
                i += 1
                b = try byte()
            }
            guard b &- 48 < 10 else {
                position = i
                throw error("invalid number: expected a digit in the exponent")
            }
            var e = 0
            repeat {
                if e < 100_000 { e = e &* 10 &+ Int(b &- 48) }
                i += 1
                b = try byte()
            } while b &- 48 < 10
            exponent += expNegative ? -e : e
        }
        position = i
        var value: Double
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            // Clinger: both operands exact, so one correctly rounded operation is exact.
            value = Double(mantissa)
            if exponent < 0 {
                value /= DecimalFormatter.powerOfTen(-exponent)
            } else {
                value *= DecimalFormatter.powerOfTen(exponent)
            }
            if negative { value = -value }
        } else if mantissa == 0 && exact {
            value = negative ? -0.0 : 0.0
        } else {
            value =
                Double(String(decoding: UnsafeBufferPointer(start: storage + start, count: i - start), as: UTF8.self))
                ?? .nan
        }
        guard value.isFinite else {
            throw GeoConvError(
                .invalidInput,
                "number \(String(decoding: UnsafeBufferPointer(start: storage + start, count: i - start), as: UTF8.self)) is too large for a 64-bit float",
                at: location(atOffset: base + start))
        }
        return value
    }

    /// Parses a number keeping its literal text (for properties: big integers and long
    /// decimals are not rounded).
    package func parseNumber() throws(GeoConvError) -> JSONNumber {
        let offset = base + position
        let range = try scanNumber()
        let bytes = UnsafeBufferPointer(start: storage + range.lowerBound, count: range.count)
        let text = String(decoding: bytes, as: UTF8.self)
        // An integer of any length is carried digit for digit (JSON sets no limit, and it is
        // never read as a float here); only a fraction or exponent beyond a double is refused.
        let isInteger = !bytes.contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
        guard isInteger || DecimalParser.parse(bytes)?.isFinite == true else {
            throw GeoConvError(
                .invalidInput, "number \(text) is too large for a 64-bit float", at: location(atOffset: offset),
                hint: "JSON numbers are read as IEEE 754 doubles; a coordinate or value this large is not a real one")
        }
        return JSONNumber(uncheckedLiteral: text)
    }
}
