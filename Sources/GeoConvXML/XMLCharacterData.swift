/// XML character data as the fast XML path (`XMLByteTokenizer`) reads it: UTF-8 checked as
/// libxml2 checks it, references replaced and line breaks normalised as libxml2 does.
enum XMLCharacterData {
    /// Whether `bytes` are UTF-8 (no overlong forms, surrogates or values past U+10FFFF) of
    /// XML characters (not U+FFFE / U+FFFF; control characters are checked by the caller).
    static func isXMLUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let low: UInt8
            let high: UInt8
            switch lead {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return false
            }
            guard i + length <= n, bytes[i + 1] >= low, bytes[i + 1] <= high else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            if lead == 0xEF && bytes[i + 1] == 0xBF && bytes[i + 2] >= 0xBE { return false }
            i += length
        }
        return true
    }

    /// Appends `raw` with its references replaced and CR LF made LF (and, for attribute
    /// values, tabs and line breaks made spaces); false at a reference it does not handle.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], normalizesBlanks: Bool) -> Bool {
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            if byte == 0x0D {
                i += 1  // (followed by LF, checked while scanning)
                continue
            }
            if normalizesBlanks && (byte == 0x09 || byte == 0x0A) {
                out.append(0x20)
                i += 1
                continue
            }
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                i += 1
                continue
            }
            var end = i + 1
            while end < raw.count, raw[end] != UInt8(ascii: ";"), end - i < 12 { end += 1 }
            guard end < raw.count, raw[end] == UInt8(ascii: ";") else { return false }
            let reference = UnsafeBufferPointer(rebasing: raw[(i + 1)..<end])
            if reference.first == UInt8(ascii: "#") {
                guard let scalar = Self.characterReference(UnsafeBufferPointer(rebasing: reference.dropFirst())) else {
                    return false
                }
                out.append(contentsOf: String(Character(scalar)).utf8)
            } else if let byte = Self.predefinedEntity(reference) {
                out.append(byte)
            } else {
                return false
            }
            i = end + 1
        }
        return true
    }

    /// `#N;` / `#xH;` (without `#` and `;`): an XML character, or `nil`.
    private static func characterReference(_ digits: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var value: UInt32 = 0
        var body = digits
        var radix: UInt32 = 10
        if body.first == UInt8(ascii: "x") {
            radix = 16
            body = UnsafeBufferPointer(rebasing: body.dropFirst())
        }
        guard !body.isEmpty, body.count <= 8 else { return nil }
        for byte in body {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit
        }
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return Unicode.Scalar(value)
        default: return nil
        }
    }
}

extension XMLCharacterData {
    /// The byte one of XML's five predefined entities stands for (`lt`, `gt`, `amp`, `quot`,
    /// `apos`: the name between '&' and ';'), compared byte by byte.
    static func predefinedEntity(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        func spells(_ word: StaticString) -> Bool {
            guard name.count == word.utf8CodeUnitCount else { return false }
            for index in 0..<name.count where name[index] != word.utf8Start[index] { return false }
            return true
        }
        switch name.first {
        case UInt8(ascii: "l"): return spells("lt") ? UInt8(ascii: "<") : nil
        case UInt8(ascii: "g"): return spells("gt") ? UInt8(ascii: ">") : nil
        case UInt8(ascii: "a"): return spells("amp") ? UInt8(ascii: "&") : (spells("apos") ? UInt8(ascii: "'") : nil)
        case UInt8(ascii: "q"): return spells("quot") ? UInt8(ascii: "\"") : nil
        default: return nil
        }
    }
}
