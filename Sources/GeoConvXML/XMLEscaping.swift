import GeoConvBytes

/// XML 1.0 text and attribute escaping, byte by byte: markup characters become entities, a
/// carriage return (and in attributes a tab or line feed) a character reference, so that a
/// parser's line-end and attribute normalisation leaves the value as it was; what XML 1.0
/// cannot hold (C0 controls other than tab and line breaks, U+FFFE, U+FFFF) is dropped. Text
/// without any of these is copied as it is.
public enum XMLEscaping {
    /// Appends `value` escaped as element text; true when characters XML cannot hold were dropped.
    @discardableResult
    public static func appendText(_ value: String, to out: inout [UInt8]) -> Bool {
        append(value, quotes: false, to: &out)
    }

    /// Appends `value` escaped as an attribute value (in double quotes); true when characters
    /// XML cannot hold were dropped.
    @discardableResult
    public static func appendAttribute(_ value: String, to out: inout [UInt8]) -> Bool {
        append(value, quotes: true, to: &out)
    }

    private static func append(_ value: String, quotes: Bool, to out: inout [UInt8]) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            guard bytes.contains(where: { needsEscape($0, quotes: quotes) }) else {
                out.append(contentsOf: bytes)
                return false
            }
            var dropped = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\"") where quotes: out.append(contentsOf: "&quot;".utf8)
                // A parser makes a literal CR (and CRLF) a LF, and in an attribute a tab or LF a
                // space: character references keep them.
                case 0x0D: out.append(contentsOf: "&#13;".utf8)
                case 0x09 where quotes: out.append(contentsOf: "&#9;".utf8)
                case 0x0A where quotes: out.append(contentsOf: "&#10;".utf8)
                case 0x09, 0x0A: out.append(byte)
                case 0..<0x20: dropped = true  // not allowed in XML 1.0
                case 0xEF
                where index + 2 < bytes.count && bytes[index + 1] == 0xBF
                    && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                    index += 2  // U+FFFE, U+FFFF
                    dropped = true
                default: out.append(byte)
                }
                index += 1
            }
            return dropped
        }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, quotes: Bool) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte < 0x20
            || byte == 0xEF
            || (quotes && byte == UInt8(ascii: "\""))
    }

    /// Whether `value` holds characters XML 1.0 cannot (which the escaping drops).
    public static func hasForbiddenCharacters(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { XMLCharacters.includeForbidden($0) }
    }

    public static func text(_ value: String) -> String {
        var out: [UInt8] = []
        appendText(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func attribute(_ value: String) -> String {
        var out: [UInt8] = []
        appendAttribute(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// HTML-looking text in CDATA (split around any "]]>"), anything else escaped.
    public static func cdataOrText(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return text(value)
        }
        let clean = String(
            String.UnicodeScalarView(
                value.unicodeScalars.filter { scalar in
                    !(scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t")
                }))
        return "<![CDATA[" + clean.replacing("]]>", with: "]]]]><![CDATA[>") + "]]>"
    }
}
