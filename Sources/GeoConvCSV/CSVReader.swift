public import GeoConvCore
public import GeoConvFormatKit
public import GeoConvIO

/// Reads CSV/TSV streaming, one row at a time.
///
/// - The header line names the columns; the delimiter is the options' or sniffed from it.
/// - The geometry comes from a WKT or hex-WKB column (WKT, geometry, geom, the_geom) or
///   from longitude/latitude columns (lon/lng/long/longitude/x, lat/latitude/y), any case,
///   or the columns the options name. The altitude comes only from the column the options
///   name, or from an `altitude` column right after `latitude` (the one geoconv writes): an
///   `elevation` or `Altitude` attribute stays a property, as GDAL reads it. These columns
///   are not repeated as properties. A row whose longitude or latitude is empty has no
///   geometry.
/// - Every other column is a property under its own key, in its place, typed value by value
///   (`CSVValues`) unless `keepsStrings`. A `name` column (else `title`; either in any case
///   only where neither is there) also gives the title when its value is text, `description`
///   or `snippet` the snippet (`TitleProperties.columns(of:in:)`).
/// - A row with the wrong number of fields, an unterminated quote, a bad WKT or WKB or a
///   non-numeric coordinate is an error at its line and column, or skipped and counted with
///   `skipsInvalidRows`.
public struct CSVReader: FeatureRunReader {
    private let records: CSVRecordReader
    private let options: CSVReadOptions
    private let diagnostics: DiagnosticLog
    private var record = CSVRecord()
    private var columns: CSVColumns?
    /// Whether the first line was data (no header): the record holds it, not yet returned.
    private var firstRowPending = false
    /// Whether the header is one name and the delimiter (an empty second name, ignored as
    /// GDAL ignores it: its writer ends a one-column header so), so that a row's empty second
    /// field is no field of its own.
    private var ignoresEmptyLastField = false
    /// Where the last feature's row starts.
    public var lastLocation: SourceLocation? {
        lastRowStart.map { SourceLocation(file: records.name, line: $0.line, column: $0.column, byteOffset: $0.offset) }
    }
    /// `lastLocation`'s parts (a place is made only when asked for).
    private var lastRowStart: (line: Int, column: Int, offset: Int)?
    /// The altitude column of the row being read when its value was not a number (kept as text).
    private var textAltitude: Int?

    /// Creates a reader over an input.
    public init(
        _ input: ByteReader, options: CSVReadOptions = CSVReadOptions(), diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        records = try CSVRecordReader(input, delimiter: options.delimiter)
        self.options = options
        self.diagnostics = diagnostics
    }

    /// A reader of a run of rows cut from an input whose header gave `columns` (`--jobs`).
    init(
        run input: ByteReader, options: CSVReadOptions, columns: CSVColumns, diagnostics: DiagnosticLog
    ) throws(GeoConvError) {
        records = try CSVRecordReader(input, delimiter: options.delimiter)
        self.options = options
        self.diagnostics = diagnostics
        self.columns = columns.copy()
    }

    // MARK: Runs (`--jobs`): whole records, cut where the grammar says a record ends.

    public var cutsFeatureRuns: Bool { columns != nil && !firstRowPending }

    public mutating func sampleFeatureRun(size: Int) throws(GeoConvError) -> (bytes: Int, features: Int)? {
        guard cutsFeatureRuns, let (length, count) = try records.scanRun(size: size) else { return nil }
        return (length, count)
    }

    public mutating func nextFeatureRun(size: Int) throws(GeoConvError) -> FeatureRun? {
        guard cutsFeatureRuns, let columns, let run = try records.takeRun(size: size) else { return nil }
        var settled = options
        settled.delimiter = records.delimiter
        let runOptions = settled
        return FeatureRun(bytes: run.bytes, line: run.line, column: 1, byteOffset: run.offset, recordsBefore: 0) {
            (input, diagnostics) throws(GeoConvError) -> any FeatureReader in
            try CSVReader(run: input, options: runOptions, columns: columns, diagnostics: diagnostics)
        }
    }

    public mutating func readHeader() throws(GeoConvError) -> DocumentHeader {
        guard columns == nil else { return DocumentHeader() }
        guard try records.next(into: &record) else {
            throw GeoConvError(
                .invalidInput, "the input is empty: a CSV file starts with a header line",
                at: SourceLocation(file: records.name, line: 1, column: 1, byteOffset: 0),
                hint: "give a header line naming the columns")
        }
        try reportTextAfterQuote()
        if records.readsCROnlyLines {
            diagnostics.note(
                CSVCode.crLineEnds, "lines end with CR alone (old Mac OS): each CR is read as a line break",
                at: SourceLocation(file: records.name, line: 1, column: 1, byteOffset: 0))
        }
        var names: [String] = []
        if CSVHeaderless.isData(record) {
            // As GDAL's HEADERS=AUTO: a first line with a number in it is data, its columns field_1…
            firstRowPending = true
            names = Array(repeating: "", count: record.count)
            diagnostics.note(
                CSVCode.noHeader,
                "the first line holds a number: it is read as data, the columns named field_1, field_2…",
                at: record.start(file: records.name))
        } else {
            for index in 0..<record.count {
                let (text, valid) = record.text(index)
                if !valid { try warnInvalidUTF8(at: record.location(index, file: records.name)) }
                names.append(text)
            }
            // (Only after a single name, as GDAL: a longer header's empty last name is a column,
            // `field_N`, as gpsbabel's MTK logs have it.)
            if names.count == 2, names[1].isEmpty {
                names.removeLast()
                ignoresEmptyLastField = true
            }
        }
        let columns = try CSVColumns(header: names, options: options)
        let at = record.start(file: records.name)
        if !columns.renamed.isEmpty {
            try diagnostics.warn(
                CSVCode.duplicateColumnRenamed,
                "columns named more than once (\(columns.renamed.joined(separator: ", "))) are renamed name_2, name_3…",
                at: at)
        }
        if !columns.hasGeometry {
            try diagnostics.warn(
                CSVCode.noGeometryColumns,
                "the header names no longitude and latitude columns and no WKT column: the rows have no geometry",
                at: at,
                hint: "name the columns with --csv-lon and --csv-lat, or --csv-geometry")
        }
        self.columns = columns
        return DocumentHeader()
    }

    public mutating func next() throws(GeoConvError) -> Feature? {
        if columns == nil { _ = try readHeader() }
        guard let columns else { return nil }
        while true {
            do throws(GeoConvError) {
                if firstRowPending {
                    firstRowPending = false
                } else {
                    guard try records.next(into: &record) else { return nil }
                }
            } catch {
                guard options.skipsInvalidRows, error.code == .invalidInput else { throw error }
                // An unterminated quote runs to the end of the input: nothing is left.
                try diagnostics.skip(CSVCode.invalidRowSkipped, "skipped a row: \(error.message)", at: error.location)
                return nil
            }
            do throws(GeoConvError) {
                let feature = try feature(columns)
                let (line, column) = record.place(0)
                lastRowStart = (line, column, record.fields[0].offset)
                return feature
            } catch {
                guard options.skipsInvalidRows,
                    error.code == .invalidInput || error.code == .unsupported || error.code == .limitExceeded
                else {
                    throw error
                }
                try diagnostics.skip(
                    CSVCode.invalidRowSkipped, "skipped a row: \(error.message)",
                    at: error.location ?? record.start(file: records.name))
            }
        }
    }

    /// The feature of the row in `record`.
    private mutating func feature(_ columns: CSVColumns) throws(GeoConvError) -> Feature {
        if ignoresEmptyLastField, record.count == columns.names.count + 1 { record.dropEmptyLastField() }
        if record.count > columns.names.count {
            // GDAL drops the fields beyond the header's without a word; they are kept here.
            try diagnostics.warn(
                CSVCode.longRow,
                "rows with more fields than the header keep the extra ones as field_N properties (N their position)",
                at: record.location(columns.names.count, file: records.name),
                hint: "quote fields that hold the delimiter; give the header a name for every column")
        }
        if record.count < columns.names.count {
            // As GDAL reads them (ogr2ogr itself writes such rows when the last column is empty).
            try diagnostics.warn(
                CSVCode.shortRow,
                "rows with fewer fields than the header are read with the missing fields as null, as GDAL reads them",
                at: record.end(file: records.name), hint: "give every row as many fields as the header")
            record.padToCount(columns.names.count)
        }
        try reportTextAfterQuote()
        textAltitude = nil
        // The parts first, the feature made once from them (no feature copied as it is filled).
        let geometry = try geometry(columns)
        let keepsStrings = options.keepsStrings
        var invalidUTF8: Int?
        var values = ContiguousArray<JSONValue>()
        values.reserveCapacity(columns.propertyKeys.count)
        // (The record has at least a field per column: shorter ones were padded above.)
        record.bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<columns.names.count where columns.isProperty[index] {
                let field = UnsafeBufferPointer(rebasing: buffer[record.range(index)])
                let text = { () -> String in
                    if let text = CSVRecord.validText(field) { return text }
                    invalidUTF8 = invalidUTF8 ?? index
                    return String(decoding: field, as: UTF8.self)
                }
                let value: JSONValue
                if field.isEmpty {
                    // An empty field is a null; a quoted one ("") is an empty text.
                    value = record.isQuoted(index) ? .string("") : .null
                } else {
                    value = keepsStrings ? .string(text()) : CSVValues.value(field, text: text)
                }
                values.append(value)
            }
        }
        // The title and snippet: their columns' values when those are text (a `name` of `12`
        // is a number, and no title, as GeoJSON's reader reads it).
        var title: String?
        var snippet: String?
        for index in columns.titleValues {
            if case .string(let text) = values[index] {
                title = text
                break
            }
        }
        for index in columns.snippetValues {
            if case .string(let text) = values[index] {
                snippet = text
                break
            }
        }
        var properties = JSONObject(distinctKeys: columns.propertyKeys, values: values)
        if let index = invalidUTF8 { try warnInvalidUTF8(at: record.location(index, file: records.name)) }
        if let column = textAltitude { properties[columns.names[column]] = .string(record.text(column).0) }
        for index in columns.names.count..<max(columns.names.count, record.count) {
            let (text, _) = record.text(index)
            // field_N, unless a column is named so (then field_N_2…).
            var key = "field_\(index + 1)"
            var n = 2
            while properties.keys.contains(key) {
                key = "field_\(index + 1)_\(n)"
                n += 1
            }
            properties[key] =
                keepsStrings || text.isEmpty
                ? (text.isEmpty ? .null : .string(text))
                : record.bytes.withUnsafeBufferPointer {
                    CSVValues.value(UnsafeBufferPointer(rebasing: $0[record.range(index)]), text: { text })
                }
        }
        return Feature(geometry: geometry, title: title, snippet: snippet, properties: properties)
    }

    /// A field's text, `nil` when empty.
    private func optionalText(_ index: Int) throws(GeoConvError) -> String? {
        guard !record.range(index).isEmpty else { return nil }
        let (text, valid) = record.text(index)
        if !valid { try warnInvalidUTF8(at: record.location(index, file: records.name)) }
        return text
    }

    private func warnInvalidUTF8(at location: SourceLocation) throws(GeoConvError) {
        try diagnostics.warn(
            CSVCode.invalidUTF8, "bytes that are not UTF-8 are read as U+FFFD", at: location,
            hint: "convert the file to UTF-8 (iconv -f latin1 -t utf-8)")
    }

    private func reportTextAfterQuote() throws(GeoConvError) {
        guard let index = record.textAfterQuote else { return }
        try diagnostics.warn(
            CSVCode.textAfterQuote, "text follows a quoted field's closing quote; it is kept as part of the field",
            at: record.location(index, file: records.name), hint: "quote the whole field, doubling the quotes inside it"
        )
    }

    /// The row's geometry, from its geometry column or its longitude and latitude.
    private mutating func geometry(_ columns: CSVColumns) throws(GeoConvError) -> Geometry? {
        if let column = columns.geometry {
            return try CSVGeometryField.parse(
                record, column, file: records.name, arcStep: options.arcStep,
                diagnostics: diagnostics)
        }
        guard let lonColumn = columns.longitude, let latColumn = columns.latitude else { return nil }
        let lon = try number(lonColumn, "longitude")
        let lat = try number(latColumn, "latitude")
        guard let lon, let lat else {
            if (lon == nil) != (lat == nil) {
                try diagnostics.warn(
                    CSVCode.partialCoordinates,
                    "a row has a \(lon == nil ? "latitude" : "longitude") but no \(lon == nil ? "longitude" : "latitude"): it has no geometry",
                    at: record.start(file: records.name))
            }
            return nil
        }
        var altitude: Double?
        if let column = columns.altitude {
            do throws(GeoConvError) {
                altitude = try number(column, "altitude")
            } catch {
                // The altitude column is found by its name (height, ele…), not named by the
                // user: a value such as "98.470 m" stays the row's property, as GDAL keeps it.
                textAltitude = column
                try diagnostics.warn(
                    CSVCode.altitudeNotNumber,
                    "an altitude that is not a number is kept as the row's property \"\(columns.names[column])\"; the point has no altitude",
                    at: record.location(column, file: records.name),
                    hint: "altitudes are numbers of metres, such as 98.47")
            }
        }
        return .point(Coordinate(latitude: lat, longitude: lon, altitude: altitude))
    }

    /// A coordinate field's number (spaces around it allowed); `nil` when empty.
    private func number(_ index: Int, _ what: String) throws(GeoConvError) -> Double? {
        let range = record.range(index)
        let parsed: Double?? = record.bytes.withUnsafeBufferPointer { buffer in
            var start = range.lowerBound
            var end = range.upperBound
            while start < end, buffer[start] == 0x20 || buffer[start] == 0x09 { start += 1 }
            while end > start, buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09 { end -= 1 }
            if start == end { return .some(nil) }
            return DecimalParser.parse(UnsafeBufferPointer(rebasing: buffer[start..<end])).map { $0 }
        }
        guard let parsed else {
            let text = record.text(index).0
            throw GeoConvError(
                .invalidInput, "the \(what) '\(text.prefix(40))' is not a number",
                at: record.location(index, file: records.name),
                hint: "coordinates are decimal degrees, such as -0.1276")
        }
        if let value = parsed, !value.isFinite {
            throw GeoConvError(
                .invalidInput, "the \(what) is not finite", at: record.location(index, file: records.name))
        }
        return parsed
    }
}
