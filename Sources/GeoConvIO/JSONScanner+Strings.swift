package import GeoConvCore

/// Strings: the escape-free ASCII fast path, escapes and surrogate pairs, UTF-8 checks.
extension JSONScanner {
    /// Parses a string at the current position (which must be `"`), unescaping it.
    package func parseString() throws(GeoConvError) -> String {
        let openOffset = base + position
        position += 1
        var i = position
        var nonASCII: UInt8 = 0
        // Fast path: no escapes.
        while true {
            if i == end {
                guard try refill() else {
                    throw GeoConvError(
                        .invalidInput, "unterminated string", at: location(atOffset: openOffset),
                        hint: "the input ends inside this string")
                }
            }
            let byte = storage[i]
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: storage + position, count: i - position)
                let text: String
                if nonASCII & 0x80 == 0 {
                    text = String(decoding: bytes, as: UTF8.self)  // ASCII is valid UTF-8: no validation pass
                } else {
                    guard let valid = String(validating: bytes, as: UTF8.self) else {
                        throw invalidUTF8(bytes, startOffset: base + position)
                    }
                    text = valid
                }
                position = i + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            nonASCII |= byte
            i += 1
        }
        var decoded: [UInt8] = Array(UnsafeBufferPointer(start: storage + position, count: i - position))
        let contentStart = base + position
        position = i
        while true {
            if position == end {
                guard try refill() else {
                    throw GeoConvError(
                        .invalidInput, "unterminated string", at: location(atOffset: openOffset),
                        hint: "the input ends inside this string")
                }
            }
            let byte = storage[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    throw GeoConvError(
                        .invalidInput, "string is not valid UTF-8", at: location(atOffset: contentStart),
                        hint: "JSON text must be UTF-8 (RFC 8259); re-encode the file")
                }
                return text
            }
            if byte < 0x20 {
                throw error(
                    "control character 0x\(String(byte, radix: 16)) inside a string",
                    hint: "escape it (\\n, \\t, \\u00XX)")
            }
            if byte != UInt8(ascii: "\\") {
                decoded.append(byte)
                position += 1
                continue
            }
            position += 1
            guard let escape = try peek() else { continue }
            position += 1
            switch escape {
            case UInt8(ascii: "\""): decoded.append(0x22)
            case UInt8(ascii: "\\"): decoded.append(0x5C)
            case UInt8(ascii: "/"): decoded.append(0x2F)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard try peek() == UInt8(ascii: "\\") else {
                        throw error("lone high surrogate \\u\(String(scalar, radix: 16)) in a string")
                    }
                    position += 1
                    guard try peek() == UInt8(ascii: "u") else {
                        throw error("lone high surrogate \\u\(String(scalar, radix: 16)) in a string")
                    }
                    position += 1
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("high surrogate \\u\(String(scalar, radix: 16)) is not followed by a low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("lone low surrogate \\u\(String(scalar, radix: 16)) in a string")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                decoded.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
            default:
                position -= 1
                throw error(
                    "invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string",
                    hint: "JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
            }
        }
    }

    package func hex4() throws(GeoConvError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek() else { throw error("the input ends inside a \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    package func invalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, startOffset: Int) -> GeoConvError {
        var index = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error:
                index = offset
                break loop
            }
        }
        return GeoConvError(
            .invalidInput, "string is not valid UTF-8 (bad byte 0x\(String(bytes[index], radix: 16)))",
            at: location(atOffset: startOffset + index),
            hint: "JSON text must be UTF-8 (RFC 8259); re-encode the file (e.g. iconv -f LATIN1 -t UTF-8)")
    }
}
