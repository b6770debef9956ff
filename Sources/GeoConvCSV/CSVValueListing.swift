import GeoConvCore
import GeoConvFormatKit
import GeoConvGeometryEncoding
import GeoConvIO

/// CSV's part of the conservation check: the names of the property columns, and every
/// non-empty cell at its place (a geometry column's WKT or WKB as its ordinates), each
/// enclosed by its row, so that what a warning about a row names is its cells.
enum CSVValueListing {
    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        // The delimiter the conversion reads with: a tab for a .tsv file (`impliedOptions`), else sniffed.
        let records = try CSVRecordReader(input, delimiter: input.name.lowercased().hasSuffix(".tsv") ? 0x09 : nil)
        var record = CSVRecord()
        guard try records.next(into: &record) else { return [] }
        let headerless = CSVHeaderless.isData(record)
        let header =
            headerless ? Array(repeating: "", count: record.count) : (0..<record.count).map { record.text($0).0 }
        let columns = try CSVColumns(header: header, options: CSVReadOptions())
        var values: [ListedValue] = []
        let headerPlace = record.place(0)
        let headerStart = ListedValue.Position(line: headerPlace.line, column: headerPlace.column)
        for index in 0..<record.count where columns.isProperty[index] && !headerless {
            let (line, column) = record.place(index)
            values.append(
                ListedValue(
                    text: header[index], line: line, column: column, enclosing: [headerStart],
                    holder: "header"))
        }
        var firstRowPending = headerless
        while true {
            if firstRowPending {
                firstRowPending = false
            } else {
                guard try records.next(into: &record) else { break }
            }
            let rowPlace = record.place(0)
            let row = ListedValue.Position(line: rowPlace.line, column: rowPlace.column)
            for index in 0..<record.count {
                let holder = index < columns.names.count ? columns.names[index] : "field \(index + 1)"
                let (line, column) = record.place(index)
                if index == columns.geometry, let ordinates = ordinates(record, index) {
                    for text in ordinates {
                        values.append(
                            ListedValue(text: text, line: line, column: column, enclosing: [row], holder: holder))
                    }
                    continue
                }
                let text = record.text(index).0
                guard !text.isEmpty else { continue }
                values.append(ListedValue(text: text, line: line, column: column, enclosing: [row], holder: holder))
            }
        }
        return values
    }

    /// The ordinates of a geometry cell, `nil` when it does not parse.
    private static func ordinates(_ record: CSVRecord, _ index: Int) -> [String]? {
        let diagnostics = DiagnosticLog()
        guard
            let geometry = try? CSVGeometryField.parse(
                record, index, file: "", arcStep: WKTParser.defaultArcStep, diagnostics: diagnostics)
        else { return nil }
        var texts: [String] = []
        geometry.forEachCoordinate { c in
            texts.append(DecimalFormatter.shortest(c.longitude))
            texts.append(DecimalFormatter.shortest(c.latitude))
            if let altitude = c.altitude { texts.append(DecimalFormatter.shortest(altitude)) }
        }
        return texts
    }
}
