#if Shapefile
import GeoConvCore
import GeoConvIO
import GeoConvFormatKit

/// Every value a shapefile holds, for the conservation check: each DBF value (line = record
/// number from 1, column = field number from 1) and each ordinate of each shape (on its
/// record's line, columns after the fields'), as the reader decodes them.
enum ShapefileValueListing {
    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        var reader = try ShapefileReader(input, options: ShapefileReadOptions(), diagnostics: DiagnosticLog())
        _ = try reader.readHeader()
        var values: [ListedValue] = []
        var line = 0
        while let feature = try reader.next() {
            line += 1
            var column = 0
            for (_, value) in feature.properties {
                column += 1
                let text: String
                switch value {
                case .string(let s): text = s
                case .number(let n): text = n.literal
                case .bool(let b): text = b ? "true" : "false"
                default: continue
                }
                values.append(ListedValue(text: text, line: line, column: column, holder: "record"))
            }
            feature.geometry?.forEachCoordinate { c in
                for ordinate in [c.longitude, c.latitude] + (c.altitude.map { [$0] } ?? []) {
                    column += 1
                    values.append(
                        ListedValue(
                            text: DecimalFormatter.shortest(ordinate), line: line, column: column, holder: "shape"))
                }
            }
        }
        return values
    }
}
#endif
