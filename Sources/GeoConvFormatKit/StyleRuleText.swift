/// One style rule as written — `SELECTOR: key=value …` — and where it was written, so that a
/// message about it names its line and column (`--style:2:14`, `rules.txt:7:3`).
public struct StyleRuleText: Hashable, Sendable {
    /// The rule (`kind = 'park': fill=#2e7d32 stroke-width=2`).
    public var text: String
    /// The file it was read from, or `--style` for a rule given on the command line.
    public var file: String
    /// Its line in the file, or which `--style` it was (from 1).
    public var line: Int
    /// The column its text starts at on that line (from 1).
    public var column: Int

    /// A rule written at `file`:`line`:`column`.
    public init(_ text: String, file: String = "--style", line: Int = 1, column: Int = 1) {
        self.text = text
        self.file = file
        self.line = line
        self.column = column
    }

    /// The rules of a style file: one a line; blank lines and lines starting with `#` (after
    /// spaces) are skipped, and so is a `#` comment after a rule when it follows a space and
    /// is not inside quotes.
    public static func lines(of contents: String, file: String) -> [StyleRuleText] {
        var rules: [StyleRuleText] = []
        // (Split as bytes: "\r\n" is one Character, which a split on "\n" would not cut.)
        let lines = contents.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            var bytes = Array(line)
            if bytes.last == 0x0D { bytes.removeLast() }
            var quote: UInt8? = nil
            var end = bytes.count
            for (offset, byte) in bytes.enumerated() {
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quote = byte
                } else if byte == UInt8(ascii: "#"),
                    offset == 0 || bytes[offset - 1] == 0x20 || bytes[offset - 1] == 0x09
                {
                    // (`#` starts a comment only after a space: `fill=#fff` is a colour.)
                    end = offset
                    break
                }
            }
            let kept = bytes[..<end]
            guard let first = kept.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            var last = kept.endIndex
            while last > first, kept[last - 1] == 0x20 || kept[last - 1] == 0x09 { last -= 1 }
            rules.append(
                StyleRuleText(
                    String(decoding: kept[first..<last], as: UTF8.self), file: file, line: index + 1,
                    column: first + 1))
        }
        return rules
    }
}

extension StringProtocol {
    /// The text without spaces and tabs around it (style rules, `--classify`).
    package var trimmingASCIISpaces: String {
        var bytes = Substring(self)
        while bytes.first == " " || bytes.first == "\t" { bytes = bytes.dropFirst() }
        while bytes.last == " " || bytes.last == "\t" { bytes = bytes.dropLast() }
        return String(bytes)
    }
}
