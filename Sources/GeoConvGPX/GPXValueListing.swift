import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvXML

/// GPX's part of the conservation check: every element text and attribute value
/// (extensions included), each at its element's start tag.
enum GPXValueListing {
    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        let listed: [XMLListedValue]
        do {
            listed = try XMLValueListing.values { buffer in try input.read(into: buffer) }
        } catch {
            throw .xmlRefusal(
                error.message, isLimit: error.isLimit, line: error.line, column: error.column, file: input.name,
                format: "GPX", underlyingError: error)
        }
        var values: [ListedValue] = []
        for value in listed {
            // The root's version and creator name the file's writer, not its data: every
            // writer (geoconv, GDAL, gpsbabel) puts its own.
            if value.path.count == 1, value.attribute == "version" || value.attribute == "creator" { continue }
            let enclosing = value.enclosing.map { ListedValue.Position(line: $0.line, column: $0.column) }
            let own = enclosing.last ?? ListedValue.Position(line: 0, column: 0)
            let holder = value.attribute.map { value.element + "@" + $0 } ?? value.element
            // GPX 1.0's <email>id@domain</email> is GPX 1.1's <email id= domain=>.
            if value.element == "email", value.attribute == nil, let at = value.text.firstIndex(of: "@") {
                for part in [String(value.text[..<at]), String(value.text[value.text.index(after: at)...])] {
                    values.append(
                        ListedValue(
                            text: part, line: own.line, column: own.column, enclosing: enclosing, holder: holder))
                }
                continue
            }
            values.append(
                ListedValue(text: value.text, line: own.line, column: own.column, enclosing: enclosing, holder: holder))
        }
        return values
    }
}
