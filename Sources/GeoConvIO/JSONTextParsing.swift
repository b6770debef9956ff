package import GeoConvCore

extension JSONText {
    /// Parses a short JSON text (at most 64 levels deep) with the package's one JSON
    /// tokenizer (`JSONScanner`); `nil` when it is not exactly one JSON value.
    package static func parse(_ text: String) -> JSONValue? {
        parse(Array(text.utf8), maximumDepth: 64)
    }

    /// Parses JSON text of any length, at most `maximumDepth` levels deep; `nil` when it is
    /// not exactly one JSON value.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int) -> JSONValue? {
        guard let reader = try? ByteReader(.memory(bytes, name: "JSON text")) else { return nil }
        let scanner = JSONScanner(reader, maximumDepth: maximumDepth)
        do throws(GeoConvError) {
            let value = try scanner.parseValue(depth: 0, pointer: "")
            return try scanner.peekToken() == nil ? value : nil
        } catch {
            return nil
        }
    }
}
