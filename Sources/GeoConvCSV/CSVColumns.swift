public import GeoConvCore
import GeoConvIO
public import GeoConvFormatKit
public import GeoConvGeometryEncoding

/// Options for reading CSV.
public struct CSVReadOptions: Hashable, Sendable {
    /// The field delimiter; `nil` to sniff it from the header line.
    public var delimiter: UInt8?
    /// The longitude, latitude and geometry columns' names, when given (any case).
    public var longitudeColumn: String?
    public var latitudeColumn: String?
    public var geometryColumn: String?
    /// The altitude column's name, when given (any case); by default only geoconv's own
    /// `altitude` column, right after `latitude`.
    public var altitudeColumn: String?
    /// Keep every value as text.
    public var keepsStrings: Bool
    /// Skip rows that do not parse, counting them.
    public var skipsInvalidRows: Bool
    /// The largest angle one segment of a linearised WKT arc spans, in degrees.
    public var arcStep: Double

    /// Creates options.
    public init(
        delimiter: UInt8? = nil, longitudeColumn: String? = nil, latitudeColumn: String? = nil,
        geometryColumn: String? = nil,
        altitudeColumn: String? = nil, keepsStrings: Bool = false, skipsInvalidRows: Bool = false,
        arcStep: Double = WKTParser.defaultArcStep
    ) {
        self.delimiter = delimiter
        self.longitudeColumn = longitudeColumn
        self.latitudeColumn = latitudeColumn
        self.geometryColumn = geometryColumn
        self.altitudeColumn = altitudeColumn
        self.keepsStrings = keepsStrings
        self.skipsInvalidRows = skipsInvalidRows
        self.arcStep = arcStep
    }

    /// The options a conversion gives (its `formatOptions`, `skipInvalid`); a usage error for
    /// a delimiter that is none of the four.
    public init(_ options: ConversionOptions) throws(GeoConvError) {
        self.init(
            delimiter: try CSVOptions.givenDelimiter(options),
            longitudeColumn: options.formatOptions[CSVOptions.longitude],
            latitudeColumn: options.formatOptions[CSVOptions.latitude],
            geometryColumn: options.formatOptions[CSVOptions.geometry],
            altitudeColumn: options.formatOptions[CSVOptions.altitude],
            keepsStrings: options.formatOptions[CSVOptions.strings] ?? false,
            skipsInvalidRows: options.skipInvalid,
            arcStep: options.formatOptions[WKTParser.arcStepOption] ?? WKTParser.defaultArcStep)
    }
}

/// What each column of a header is: its property name, and the columns the geometry,
/// title and snippet come from. A class: a reader's rows read it in place, without copying
/// its arrays, and each run of `--jobs` has its own (`copy()`), so that no reference count
/// is shared between threads.
final class CSVColumns: Sendable {
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude", "x"]
    static let latitudeNames: Set<String> = ["lat", "latitude", "y"]
    static let geometryNames: Set<String> = ["wkt", "geometry", "geom", "the_geom"]

    /// A header name as it is matched: trimmed, lower case.
    static func normalised(_ name: String) -> String {
        name.trimmingSpaces.lowercased()
    }

    /// Each column's property name (empty ones `field_N`, repeated ones `name_2`…).
    let names: [String]
    let longitude: Int?
    let latitude: Int?
    let altitude: Int?
    let geometry: Int?
    /// The places among a row's property values the title and the snippet may come from, in
    /// order of preference (`TitleProperties.columns(of:in:)`): the first that holds text.
    let titleValues: [Int]
    let snippetValues: [Int]
    /// Whether each column holds a property (not the geometry's; the title's and snippet's do).
    let isProperty: [Bool]
    /// Names given twice, renamed (for a warning).
    let renamed: [String]
    /// The names of the property columns, in order: the keys of every row's properties.
    let propertyKeys: ContiguousArray<String>

    private init(
        names: [String], longitude: Int?, latitude: Int?, altitude: Int?, geometry: Int?,
        isProperty: [Bool], renamed: [String]
    ) {
        self.names = names
        self.longitude = longitude
        self.latitude = latitude
        self.altitude = altitude
        self.geometry = geometry
        self.isProperty = isProperty
        self.renamed = renamed
        propertyKeys = ContiguousArray(names.indices.lazy.filter { isProperty[$0] }.map { names[$0] })
        titleValues = TitleProperties.columns(of: .title, in: propertyKeys)
        snippetValues = TitleProperties.columns(of: .snippet, in: propertyKeys)
    }

    /// The same columns in arrays of their own.
    func copy() -> CSVColumns {
        CSVColumns(
            names: names.map { String(decoding: Array($0.utf8), as: UTF8.self) }, longitude: longitude,
            latitude: latitude,
            altitude: altitude, geometry: geometry, isProperty: isProperty.map { $0 }, renamed: renamed)
    }

    /// The roles of a header's columns: those the options name, else the first column of
    /// each recognised name. A geometry column wins over longitude/latitude ones (which then
    /// stay properties); the altitude column is used with longitude/latitude only.
    convenience init(header: [String], options: CSVReadOptions) throws(GeoConvError) {
        var names: [String] = []
        var renamed: [String] = []
        var longitude: Int?
        var latitude: Int?
        var altitude: Int?
        var geometry: Int?
        // A name met again becomes name_2, name_3…, skipping those the header gives itself:
        // every column keeps a name of its own. Names are told apart as written (`NAME` and
        // `Name` are two columns, as GDAL reads them).
        let given = Set(header)
        var assigned: Set<String> = []
        for (index, raw) in header.enumerated() {
            var name = raw.isEmpty ? "field_\(index + 1)" : raw
            if assigned.contains(name) {
                renamed.append(name)
                var n = 2
                while given.contains("\(name)_\(n)") || assigned.contains("\(name)_\(n)") { n += 1 }
                name += "_\(n)"
            }
            assigned.insert(name)
            names.append(name)
        }
        let normalised = names.map(CSVColumns.normalised)
        func named(_ given: String, _ option: String) throws(GeoConvError) -> Int {
            guard let index = normalised.firstIndex(of: CSVColumns.normalised(given)) else {
                throw GeoConvError(
                    .usage, "--\(option) \(given): the header has no such column",
                    hint: "the columns are: \(header.joined(separator: ", "))")
            }
            return index
        }
        func first(_ candidates: Set<String>) -> Int? { normalised.firstIndex { candidates.contains($0) } }
        if let given = options.geometryColumn {
            geometry = try named(given, "csv-geometry")
        } else if let lon = options.longitudeColumn, let lat = options.latitudeColumn {
            longitude = try named(lon, "csv-lon")
            latitude = try named(lat, "csv-lat")
        } else if options.longitudeColumn != nil || options.latitudeColumn != nil {
            longitude =
                try options.longitudeColumn.map { (name: String) throws(GeoConvError) in try named(name, "csv-lon") }
                ?? first(CSVColumns.longitudeNames)
            latitude =
                try options.latitudeColumn.map { (name: String) throws(GeoConvError) in try named(name, "csv-lat") }
                ?? first(CSVColumns.latitudeNames)
        } else if let found = first(CSVColumns.geometryNames) {
            geometry = found
        } else {
            longitude = first(CSVColumns.longitudeNames)
            latitude = first(CSVColumns.latitudeNames)
        }
        if longitude == nil || latitude == nil {
            longitude = nil
            latitude = nil
            if let given = options.altitudeColumn {
                throw GeoConvError(
                    .usage, "--csv-alt \(given): altitudes are read with longitude and latitude columns only",
                    hint: "name the longitude and latitude columns too (--csv-lon, --csv-lat)")
            }
        } else if let given = options.altitudeColumn {
            altitude = try named(given, "csv-alt")
        } else if let latitude, latitude + 1 < names.count, names[latitude] == "latitude",
            names[latitude + 1] == "altitude"
        {
            // The altitude column geoconv writes; any other (`elevation`, `Altitude`, `height`)
            // is an attribute unless the user names it, as GDAL reads it.
            altitude = latitude + 1
        }
        // The title and snippet columns stay properties, under their own keys and in their
        // places (`TitleProperties`).
        let roles = [longitude, latitude, altitude, geometry]
        self.init(
            names: names, longitude: longitude, latitude: latitude, altitude: altitude, geometry: geometry,
            isProperty: header.indices.map { !roles.contains($0) }, renamed: renamed)
    }

    /// Whether the rows have a geometry.
    var hasGeometry: Bool { geometry != nil || longitude != nil }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}

/// Typing a value as GDAL's CSV driver does with `AUTODETECT_TYPE=YES`, but value by value:
/// integers and reals (as JSON numbers, their text kept), `true`/`false`, empty = null,
/// anything else text. Numbers with leading zeros (`007`) stay text, as do `nan`, `inf`,
/// hexadecimal and values with spaces around them.
enum CSVValues {
    /// The JSON value of a field's bytes.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, text: () -> String) -> JSONValue {
        if bytes.isEmpty { return .null }
        switch numberForm(bytes) {
        case .json: return .number(JSONNumber(uncheckedLiteral: String(decoding: bytes, as: UTF8.self)))
        case .other:
            if let number = DecimalParser.parse(bytes), number.isFinite, let json = JSONNumber(number) {
                return .number(json)
            }
        case .none:
            if isTrue(bytes) { return .bool(true) }
            if isFalse(bytes) { return .bool(false) }
        }
        return .string(text())
    }

    /// Whether `bytes` spell `true` (`false`), byte by byte.
    static func isTrue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { spell(bytes, "true") }

    static func isFalse(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { spell(bytes, "false") }

    @inline(__always)
    private static func spell(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for i in 0..<bytes.count where bytes[i] != expected[i] { return false }
        return true
    }

    /// How a field reads as a number.
    enum NumberForm {
        /// A JSON number, kept as written.
        case json
        /// A number GDAL reads that JSON does not write so (`+5`, `.5`, `5.`): normalised.
        case other
    }

    /// Whether the bytes are a decimal number, and in which form; `nil` for text (leading
    /// zeros included: `007` is a code, not seven).
    static func numberForm(_ bytes: UnsafeBufferPointer<UInt8>) -> NumberForm? {
        var i = 0
        var json = true
        let count = bytes.count
        if i < count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            if bytes[i] == UInt8(ascii: "+") { json = false }
            i += 1
        }
        let integerStart = i
        while i < count, bytes[i] &- 48 < 10 { i += 1 }
        let integerDigits = i - integerStart
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return nil }
        if integerDigits == 0 { json = false }
        var fractionDigits = 0
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < count, bytes[i] &- 48 < 10 { i += 1 }
            fractionDigits = i - fractionStart
            if fractionDigits == 0 { json = false }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if i < count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let exponentStart = i
            while i < count, bytes[i] &- 48 < 10 { i += 1 }
            if i == exponentStart { return nil }
        }
        guard i == count else { return nil }
        return json ? .json : .other
    }

    /// Whether text would be read back as a number or a boolean.
    static func readsAsTyped(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            numberForm(bytes) != nil || isTrue(bytes) || isFalse(bytes)
        }
    }
}

/// Whether a first line is data rather than a header: as GDAL's `HEADERS=AUTO`, when any of
/// its fields (spaces around it aside) is a number.
enum CSVHeaderless {
    static func isData(_ record: CSVRecord) -> Bool {
        record.bytes.withUnsafeBufferPointer { buffer in
            (0..<record.count).contains { index in
                let range = record.range(index)
                var start = range.lowerBound
                var end = range.upperBound
                while start < end, buffer[start] == 0x20 || buffer[start] == 0x09 { start += 1 }
                while end > start, buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09 { end -= 1 }
                return start < end && CSVValues.numberForm(UnsafeBufferPointer(rebasing: buffer[start..<end])) != nil
            }
        }
    }
}
