package import GeoConvCore

/// A `--where` expression in the part of OGR SQL that ogr2ogr's `-where` users type:
/// comparisons (`= != <> < <= > >=`), `AND`, `OR`, `NOT`, parentheses, `IN (…)`, `LIKE` and
/// `ILIKE` with `%` and `_`, `IS [NOT] NULL`, string literals in single quotes (`''` for a
/// quote), numbers, and properties by name (double-quoted for names that are not
/// identifiers: `"road type"`). Keywords in any case.
///
/// How values compare (as GDAL 3.6 compares them, except where noted in docs/cli.md):
/// strings case-insensitively; a number with a string by reading the string as a number (no
/// match when it is not one); booleans as 1 and 0; a missing or null value matches nothing
/// but `IS NULL`, and `NOT` negates that "no match".
package struct WhereExpression: Hashable, Sendable {
    /// A value in an expression.
    package enum Operand: Hashable, Sendable {
        /// A property (or the title, snippet or id: `WhereExpression.value(of:in:)`).
        case field(FieldReference)
        case string(String)
        case number(Double)
        case null
    }

    package enum Comparison: Hashable, Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    package indirect enum Node: Hashable, Sendable {
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        case compare(Operand, Comparison, Operand)
        case isNull(Operand)
        case isIn(Operand, [Operand])
        case like(Operand, pattern: Operand, ignoringCase: Bool)
    }

    /// The parsed expression.
    package let root: Node
    /// The text as given.
    package let text: String

    /// Parses `text`.
    ///
    /// - Throws: `usage`, located at the column of the token that does not fit (`--where:1:N`),
    ///   with what was expected there.
    package init(_ text: String) throws(GeoConvError) {
        var parser = WhereParser(text)
        root = try parser.parseExpression()
        try parser.expectEnd()
        self.text = text
    }

    /// The properties the expression reads, in order of first use.
    package var fieldNames: [String] {
        var names: [String] = []
        func visit(_ operand: Operand) {
            if case .field(let field) = operand, !names.contains(field.name) { names.append(field.name) }
        }
        func visit(_ node: Node) {
            switch node {
            case .and(let a, let b), .or(let a, let b):
                visit(a)
                visit(b)
            case .not(let a): visit(a)
            case .compare(let a, _, let b):
                visit(a)
                visit(b)
            case .isNull(let a): visit(a)
            case .isIn(let a, let list):
                visit(a)
                list.forEach(visit)
            case .like(let a, let pattern, _):
                visit(a)
                visit(pattern)
            }
        }
        visit(root)
        return names
    }
}

/// The tokens and the recursive-descent parser of `WhereExpression`:
///
///     expression := term (OR term)*
///     term       := factor (AND factor)*
///     factor     := NOT factor | '(' expression ')' | predicate
///     predicate  := operand ( comparison operand | IS [NOT] NULL | [NOT] IN '(' operand (',' operand)* ')'
///                           | [NOT] (LIKE | ILIKE) operand )
struct WhereParser {
    enum Token: Equatable {
        case word(String)  // an identifier or keyword, as written
        case quotedName(String)
        case string(String)
        case number(Double)
        case symbol(String)  // ( ) , = != <> < <= > >=
        case end
    }

    private let bytes: [UInt8]
    private var position = 0
    private var token: Token = .end
    private var tokenColumn = 1

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    // MARK: Grammar

    mutating func parseExpression() throws(GeoConvError) -> WhereExpression.Node {
        if position == 0 { try advance() }
        var node = try parseTerm()
        while isKeyword("OR") {
            try advance()
            node = .or(node, try parseTerm())
        }
        return node
    }

    mutating func expectEnd() throws(GeoConvError) {
        guard token == .end else { throw error("expected AND, OR or the end of the expression") }
    }

    private mutating func parseTerm() throws(GeoConvError) -> WhereExpression.Node {
        var node = try parseFactor()
        while isKeyword("AND") {
            try advance()
            node = .and(node, try parseFactor())
        }
        return node
    }

    private mutating func parseFactor() throws(GeoConvError) -> WhereExpression.Node {
        if isKeyword("NOT") {
            try advance()
            return .not(try parseFactor())
        }
        if token == .symbol("(") {
            try advance()
            let node = try parseExpression()
            guard token == .symbol(")") else { throw error("expected ')'") }
            try advance()
            return node
        }
        return try parsePredicate()
    }

    private mutating func parsePredicate() throws(GeoConvError) -> WhereExpression.Node {
        let left = try parseOperand()
        if case .symbol(let symbol) = token, let comparison = Self.comparisons[symbol] {
            try advance()
            return .compare(left, comparison, try parseOperand())
        }
        if isKeyword("IS") {
            try advance()
            var negated = false
            if isKeyword("NOT") {
                negated = true
                try advance()
            }
            guard isKeyword("NULL") else { throw error("expected NULL after IS") }
            try advance()
            return negated ? .not(.isNull(left)) : .isNull(left)
        }
        var negated = false
        if isKeyword("NOT") {
            negated = true
            try advance()
        }
        let node: WhereExpression.Node
        if isKeyword("IN") {
            try advance()
            guard token == .symbol("(") else { throw error("expected '(' after IN") }
            try advance()
            var list = [try parseOperand()]
            while token == .symbol(",") {
                try advance()
                list.append(try parseOperand())
            }
            guard token == .symbol(")") else { throw error("expected ',' or ')' in the IN list") }
            try advance()
            node = .isIn(left, list)
        } else if isKeyword("LIKE") || isKeyword("ILIKE") {
            let ignoringCase = isKeyword("ILIKE")
            try advance()
            node = .like(left, pattern: try parseOperand(), ignoringCase: ignoringCase)
        } else {
            throw error(
                negated
                    ? "expected IN, LIKE or ILIKE after NOT"
                    : "expected a comparison (= != <> < <= > >=), IS [NOT] NULL, IN, LIKE or ILIKE")
        }
        return negated ? .not(node) : node
    }

    private mutating func parseOperand() throws(GeoConvError) -> WhereExpression.Operand {
        let operand: WhereExpression.Operand
        switch token {
        case .string(let s): operand = .string(s)
        case .number(let n): operand = .number(n)
        case .quotedName(let name): operand = .field(FieldReference(name))
        case .word(let word):
            if Self.keywords.contains(word.uppercased()) {
                guard word.uppercased() == "NULL" else {
                    throw error("expected a property or a value, found the keyword \(word)")
                }
                operand = .null
            } else {
                operand = .field(FieldReference(word))
            }
        case .symbol(let symbol): throw error("expected a property or a value, found '\(symbol)'")
        case .end: throw error("expected a property or a value at the end of the expression")
        }
        try advance()
        return operand
    }

    private static let comparisons: [String: WhereExpression.Comparison] = [
        "=": .equal, "==": .equal, "!=": .notEqual, "<>": .notEqual,
        "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
    ]
    private static let keywords: Set<String> = ["AND", "OR", "NOT", "IS", "NULL", "IN", "LIKE", "ILIKE"]

    private func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word) = token { return word.uppercased() == keyword }
        return false
    }

    private func error(_ message: String) -> GeoConvError {
        GeoConvError(
            .usage, "--where: \(message)", at: SourceLocation(file: "--where", line: 1, column: tokenColumn),
            hint:
                "the expression reads: \(String(decoding: bytes, as: UTF8.self)); "
                + "OGR SQL, e.g. kind = 'park' AND area > 1000"
        )
    }

    // MARK: Tokens

    /// Reads the next token into `token`.
    private mutating func advance() throws(GeoConvError) {
        while position < bytes.count,
            bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A || bytes[position] == 0x0D
        {
            position += 1
        }
        tokenColumn = column(of: position)
        guard position < bytes.count else {
            token = .end
            return
        }
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            let text = try quoted(by: byte)
            token = byte == UInt8(ascii: "'") ? .string(text) : .quotedName(text)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"):
            token = .number(try number())
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","):
            position += 1
            token = .symbol(String(UnicodeScalar(byte)))
        case UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            let start = position
            position += 1
            if position < bytes.count,
                bytes[position] == UInt8(ascii: "=")
                    || (byte == UInt8(ascii: "<") && bytes[position] == UInt8(ascii: ">"))
            {
                position += 1
            }
            let symbol = String(decoding: bytes[start..<position], as: UTF8.self)
            guard symbol != "!" else { throw error("expected '!=', found '!'") }
            token = .symbol(symbol)
        default:
            guard Self.isNameByte(byte), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw error("unexpected character '\(String(decoding: [byte], as: UTF8.self))'")
            }
            let start = position
            while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
            token = .word(String(decoding: bytes[start..<position], as: UTF8.self))
        }
    }

    /// Letters, digits, `_`, and every byte of a non-ASCII UTF-8 character (names in any script).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// A string or name between `quote`s, a doubled quote standing for one.
    private mutating func quoted(by quote: UInt8) throws(GeoConvError) -> String {
        guard let (text, end) = WhereExpression.quotedText(bytes, from: position) else {
            throw error(
                quote == UInt8(ascii: "'")
                    ? "the string is not closed: a ' is missing" : "the name is not closed: a \" is missing")
        }
        position = end
        return text
    }

    private mutating func number() throws(GeoConvError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") { position += 1 }
        while position < bytes.count,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) || bytes[position] == UInt8(ascii: ".")
        {
            position += 1
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
                position += 1
            }
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else { throw error("'\(literal)' is not a number") }
        return value
    }

    /// The 1-based column (in characters) of byte `offset`.
    private func column(of offset: Int) -> Int {
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { column += 1 }
        return column
    }
}

/// A property named in `--where` or `--select`, with the model field it stands for when no
/// property has that name (decided once, not per feature).
package struct FieldReference: Hashable, Sendable {
    /// The name as typed.
    package let name: String
    /// The title, snippet or id the name stands for, if any.
    package let modelField: FieldNames.ModelField?

    package init(_ name: String) {
        self.name = name
        modelField = FieldNames.modelField(name)
    }
}

/// How selection finds a property by the name a user typed.
package enum FieldNames {
    /// A model field a name stands for when no property has it.
    package enum ModelField: Hashable, Sendable { case title, snippet, id }

    /// `name`/`title` → the title, `description`/`snippet` → the snippet, `id` → the id (any case).
    package static func modelField(_ name: String) -> ModelField? {
        switch name.lowercased() {
        case "name", "title": .title
        case "description", "snippet": .snippet
        case "id": .id
        default: nil
        }
    }

    /// The value of the property whose name equals `name` with ASCII letters folded.
    package static func caseInsensitiveValue(_ name: String, in properties: JSONObject) -> JSONValue? {
        guard let index = caseInsensitiveIndex(name, in: properties) else { return nil }
        return properties.values[index]
    }

    /// The index of the property whose name equals `name` with ASCII letters folded.
    package static func caseInsensitiveIndex(_ name: String, in properties: JSONObject) -> Int? {
        properties.keys.firstIndex {
            $0.utf8.count == name.utf8.count && WhereExpression.compareIgnoringCase($0, name) == 0
        }
    }
}

extension WhereExpression {
    /// Strings compared byte by byte with ASCII letters folded, as OGR SQL compares them.
    package static func compareIgnoringCase(_ a: String, _ b: String) -> Int {
        var i = a.utf8.makeIterator()
        var j = b.utf8.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?):
                let fx = folded(x)
                let fy = folded(y)
                if fx != fy { return fx < fy ? -1 : 1 }
            }
        }
    }

    /// The text between the quote at `bytes[start]` and the same quote closing it, a doubled
    /// quote standing for one (as SQL quotes strings and names), and the offset after the
    /// closing quote; `nil` when none closes it.
    package static func quotedText(_ bytes: [UInt8], from start: Int) -> (text: String, end: Int)? {
        let quote = bytes[start]
        var text: [UInt8] = []
        var position = start + 1
        while position < bytes.count {
            if bytes[position] == quote {
                if position + 1 < bytes.count, bytes[position + 1] == quote {
                    text.append(quote)
                    position += 2
                    continue
                }
                return (String(decoding: text, as: UTF8.self), position + 1)
            }
            text.append(bytes[position])
            position += 1
        }
        return nil
    }

    /// `byte` with an ASCII capital made small.
    @inline(__always) package static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
