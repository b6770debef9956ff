import GeoConvCore
import GeoConvFormatKit

/// Reads a `StyleRule` from its text:
///
///     rule     := selector ':' (key '=' value)+
///     selector := '*' | a --where expression (up to the first ':' outside quotes)
///     key      := ['highlight.'] name
///     value    := 'quoted' ('' for a quote) | "quoted" | text up to a space outside parentheses
struct StyleRuleParser {
    struct Parsed {
        var selector: WhereExpression?
        var assignments: [StyleRule.Assignment] = []
        var problems: [StyleRule.Problem] = []
    }

    private let written: StyleRuleText
    private let bytes: [UInt8]
    private var position = 0

    init(_ written: StyleRuleText) {
        self.written = written
        bytes = Array(written.text.utf8)
    }

    mutating func parse() throws(GeoConvError) -> Parsed {
        guard let colon = firstColonOutsideQuotes() else {
            throw error(
                at: bytes.count, "a style rule is SELECTOR: key=value …, and this one has no ':'",
                hint: "for example: kind = 'park': fill=#2e7d32 stroke-width=2 (or * for every feature)")
        }
        var parsed = Parsed()
        let selectorText = String(decoding: bytes[..<colon], as: UTF8.self)
        let trimmed = selectorText.trimmingASCIISpaces
        if trimmed.isEmpty {
            throw error(at: 0, "the rule has no selector before ':'", hint: "write * to match every feature")
        }
        if trimmed != "*" {
            do throws(GeoConvError) {
                parsed.selector = try WhereExpression(selectorText)
            } catch {
                let column = error.location?.column ?? 1
                let message = error.message.hasPrefix("--where: ") ? String(error.message.dropFirst(9)) : error.message
                throw self.error(
                    at: offset(ofColumn: column, in: bytes[..<colon]), "the selector: " + message,
                    hint: "a selector is a --where expression, e.g. kind = 'park' AND area > 1000, or *")
            }
        }
        position = colon + 1
        while true {
            skipSpaces()
            guard position < bytes.count else { break }
            let keyStart = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "="), !isSpace(bytes[position]) {
                position += 1
            }
            let name = String(decoding: bytes[keyStart..<position], as: UTF8.self)
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw error(
                    at: keyStart, "'\(name)' has no value: keys are written key=value",
                    hint: "for example fill=#2e7d32")
            }
            position += 1
            let (key, highlight) = try Self.key(named: name, at: keyStart, parser: self)
            let valueStart = position
            let (text, quoted) = try value()
            let location = place(keyStart)
            switch Self.value(text, quoted: quoted, for: key) {
            case .success(let value):
                parsed.assignments.append(
                    StyleRule.Assignment(key: key, highlight: highlight, value: value, location: location))
            case .failure(let problem):
                parsed.problems.append(
                    StyleRule.Problem(message: problem.message, location: place(valueStart), hint: problem.hint))
            }
        }
        guard !parsed.assignments.isEmpty || !parsed.problems.isEmpty else {
            throw error(at: bytes.count, "the rule sets no key after ':'", hint: "for example: * : stroke=#333333")
        }
        return parsed
    }

    // MARK: Keys and values

    private static func key(
        named name: String, at offset: Int, parser: StyleRuleParser
    ) throws(GeoConvError) -> (StyleRule.Key, Bool) {
        let highlight = name.hasPrefix("highlight.")
        let bare = highlight ? String(name.dropFirst(10)) : name
        guard let key = StyleRule.Key(rawValue: bare) else {
            throw parser.error(
                at: offset, "'\(name)' is not a style key",
                hint: "the keys: " + StyleRule.Key.allCases.map(\.rawValue).joined(separator: ", ")
                    + "; highlight.<key> for the highlighted state")
        }
        if highlight, !key.highlights {
            throw parser.error(
                at: offset, "'\(bare)' has no highlighted state",
                hint: "highlight. takes: "
                    + StyleRule.Key.allCases.filter(\.highlights).map(\.rawValue)
                    .joined(separator: ", "))
        }
        return (key, highlight)
    }

    struct ValueProblem: Error {
        let message: String
        let hint: String
    }

    /// `text` as a value of `key`: a template when it holds `{property}`, else the literal
    /// read as the key's kind.
    static func value(_ text: String, quoted: Bool, for key: StyleRule.Key) -> Result<StyleRule.Value, ValueProblem> {
        if let parts = template(text) { return .success(.template(parts)) }
        switch resolve(text, for: key) {
        case .success(let resolved): return .success(.known(resolved))
        case .failure(let problem): return .failure(problem)
        }
    }

    /// A literal as a value of `key`'s kind.
    static func resolve(_ text: String, for key: StyleRule.Key) -> Result<StyleRule.Resolved, ValueProblem> {
        switch key.kind {
        case .color:
            guard let color = Color(css: text) else {
                return .failure(
                    ValueProblem(
                        message: "\(key.rawValue)=\(text): '\(text)' is not a colour",
                        hint: "give #rgb, #rrggbb, #rrggbbaa, a CSS name (steelblue) or rgb(70, 130, 180)"))
            }
            return .success(.color(color))
        case .number, .opacity:
            guard let number = Double(text.trimmingASCIISpaces), number.isFinite,
                key.kind != .opacity || (0...1).contains(number)
            else {
                let range = key.kind == .opacity ? "a number from 0 to 1" : "a number"
                return .failure(
                    ValueProblem(
                        message: "\(key.rawValue)=\(text): '\(text)' is not \(range)",
                        hint: key.kind == .opacity ? "for example 0.5" : "for example 2.5"))
            }
            return .success(.number(number))
        case .integer:
            guard let number = Int(text.trimmingASCIISpaces) else {
                return .failure(
                    ValueProblem(
                        message: "\(key.rawValue)=\(text): '\(text)' is not a whole number",
                        hint: "for example 10"))
            }
            return .success(.integer(number))
        case .flag:
            switch text.trimmingASCIISpaces.lowercased() {
            case "true", "yes", "1", "on": return .success(.flag(true))
            case "false", "no", "0", "off": return .success(.flag(false))
            default:
                return .failure(
                    ValueProblem(
                        message: "\(key.rawValue)=\(text): '\(text)' is not true or false",
                        hint: "give true or false"))
            }
        case .text:
            return .success(.text(text))
        }
    }

    /// The parts of a value with `{property}` places; `nil` when it has none.
    static func template(_ text: String) -> [StyleRule.TemplatePart]? {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return nil }
        var parts: [StyleRule.TemplatePart] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            literal += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.property(FieldReference(name)))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        return parts.contains { if case .property = $0 { true } else { false } } ? parts : nil
    }

    /// The value at `position`: quoted, or up to a space outside parentheses.
    private mutating func value() throws(GeoConvError) -> (String, quoted: Bool) {
        guard position < bytes.count, !isSpace(bytes[position]) else {
            throw error(at: position, "a key has '=' and no value", hint: "for example stroke-width=2")
        }
        let quote = bytes[position]
        if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
            guard let (text, end) = WhereExpression.quotedText(bytes, from: position) else {
                throw error(at: position, "a quoted value is not closed", hint: "end it with the same quote")
            }
            position = end
            return (text, true)
        }
        let start = position
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") { depth = max(0, depth - 1) }
            if depth == 0, isSpace(byte) { break }
            position += 1
        }
        return (String(decoding: bytes[start..<position], as: UTF8.self), false)
    }

    // MARK: Bytes and places

    private func firstColonOutsideQuotes() -> Int? {
        var quote: UInt8?
        for (offset, byte) in bytes.enumerated() {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: ":") {
                return offset
            }
        }
        return nil
    }

    private mutating func skipSpaces() {
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The place of byte `offset` of the rule: its line, and its column counted in characters.
    func place(_ offset: Int) -> SourceLocation {
        var column = written.column
        for byte in bytes[..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(file: written.file, line: written.line, column: column)
    }

    /// The byte offset of the 1-based character `column` of `slice`.
    private func offset(ofColumn column: Int, in slice: ArraySlice<UInt8>) -> Int {
        var characters = 1
        for index in slice.indices where slice[index] & 0xC0 != 0x80 {
            if characters == column { return index }
            characters += 1
        }
        return slice.endIndex
    }

    func error(at offset: Int, _ message: String, hint: String) -> GeoConvError {
        GeoConvError(.usage, "style rule: " + message, at: place(offset), hint: hint)
    }
}
