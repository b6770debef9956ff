import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvParquet

/// GeoParquet's part of the conservation check. A Parquet file has no lines: a value's
/// "line" is its row (the column names are line 1, row r is line r + 2) and its "column" the
/// column's place in the schema, so that what a warning about a row names is its values.
enum GeoParquetValueListing {
    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        var reader = try GeoParquetReader(input, diagnostics: DiagnosticLog())
        _ = try reader.readHeader()
        var values: [ListedValue] = []
        var names: [String] = []
        var line = 1
        while let feature = try reader.next() {
            line += 1
            let row = ListedValue.Position(line: line, column: 1)
            func list(_ text: String, _ holder: String) {
                if !names.contains(holder) { names.append(holder) }
                let column = (names.firstIndex(of: holder) ?? 0) + 1
                values.append(ListedValue(text: text, line: line, column: column, enclosing: [row], holder: holder))
            }
            feature.geometry?.forEachCoordinate { c in
                list(DecimalFormatter.shortest(c.longitude), "geometry")
                list(DecimalFormatter.shortest(c.latitude), "geometry")
                if let altitude = c.altitude { list(DecimalFormatter.shortest(altitude), "geometry") }
            }
            // (The title and snippet are their columns' values, listed with the properties.)
            for (key, value) in feature.properties {
                switch value {
                case .null: continue
                case .string(let s): if !s.isEmpty { list(s, key) }
                case .number(let n): list(n.literal, key)
                case .bool(let b): list(b ? "true" : "false", key)
                case .array, .object: list(String(decoding: JSONText.compact(value), as: UTF8.self), key)
                }
            }
        }
        let start = ListedValue.Position(line: 1, column: 1)
        for (index, name) in names.enumerated() where name != "geometry" {
            values.append(ListedValue(text: name, line: 1, column: index + 1, enclosing: [start], holder: "schema"))
        }
        return values
    }
}
