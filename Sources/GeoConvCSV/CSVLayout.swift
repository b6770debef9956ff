import GeoConvCore

/// A spooled row: its cells, each as a slot number and its bytes (varint slot, varint
/// length, bytes), framed by the row's length. Slots 0–6 are the fixed columns, then the
/// properties in the order first seen.
enum CSVRowSlot {
    static let longitude = 0, latitude = 1, altitude = 2, wkt = 3, id = 4, title = 5, snippet = 6
    static let firstProperty = 7

    static func appendVarint(_ value: Int, to out: inout [UInt8]) {
        var value = UInt(value)
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// The varint at `index` and the index after it; `nil` when the bytes end first.
    static func readVarint(_ bytes: [UInt8], at index: Int) -> (Int, Int)? {
        var value = 0
        var shift = 0
        var index = index
        while index < bytes.count, shift < 63 {
            let byte = bytes[index]
            value |= Int(byte & 0x7F) << shift
            index += 1
            if byte < 0x80 { return (value, index) }
            shift += 7
        }
        return nil
    }

    static func append(_ slot: Int, _ bytes: [UInt8], to row: inout [UInt8]) {
        appendVarint(slot, to: &row)
        appendVarint(bytes.count, to: &row)
        row.append(contentsOf: bytes)
    }

    /// Each cell's bytes in `bytes`, by slot.
    static func decode(_ bytes: [UInt8], _ range: Range<Int>, into cells: inout [Range<Int>?]) {
        var index = range.lowerBound
        while index < range.upperBound, let (slot, afterSlot) = readVarint(bytes, at: index),
            let (length, body) = readVarint(bytes, at: afterSlot)
        {
            if slot < cells.count { cells[slot] = body..<(body + length) }
            index = body + length
        }
    }
}

/// The columns a writer writes, decided when every feature was seen.
struct CSVLayout {
    /// Column names, in order.
    var names: [String] = []
    /// The row slot each column is written from.
    var slots: [Int] = []
    /// Properties renamed because another column has their name.
    var renamed: [String] = []
    /// The property columns the title and snippet are written to when no property carries them.
    private(set) var titleColumn: String?, snippetColumn: String?
    /// For each column, the row slot to fall back on when the row has no cell in its own.
    private var fallbacks: [Int?] = []
    /// Whether geometries are written as WKT (else as longitude, latitude[, altitude]).
    let wkt: Bool

    init(wkt: Bool, altitude: Bool, id: Bool, title: Bool, snippet: Bool, properties: [String]) {
        self.wkt = wkt
        // Names are told apart as written (`NAME` and `Name` are two columns, as GDAL keeps them).
        var taken = Set<String>()
        func add(_ name: String, _ slot: Int) {
            taken.insert(name)
            names.append(name)
            slots.append(slot)
        }
        if wkt {
            add("WKT", CSVRowSlot.wkt)
        } else {
            add("longitude", CSVRowSlot.longitude)
            add("latitude", CSVRowSlot.latitude)
            if altitude { add("altitude", CSVRowSlot.altitude) }
        }
        if id { add("id", CSVRowSlot.id) }
        // The title's column is the property `name`'s where there is one (a feature whose `name`
        // carries its title writes it there; one whose title nothing carries, its title): one
        // column, not `name` and `name_2` (likewise `description`).
        if title, !properties.contains("name") { add("name", CSVRowSlot.title) }
        if snippet, !properties.contains("description") { add("description", CSVRowSlot.snippet) }
        titleColumn = title && properties.contains("name") ? "name" : nil
        snippetColumn = snippet && properties.contains("description") ? "description" : nil
        for (index, property) in properties.enumerated() {
            var name = property
            var suffix = 1
            // Right after `latitude`, a column named `altitude` is read as the altitudes; beside
            // longitude and latitude columns, one named as a geometry column (`WKT`, `geometry`,
            // any case) would be read as the geometry.
            let followsLatitude = !wkt && names.count == 2
            func isRead(_ name: String) -> Bool {
                (followsLatitude && name == "altitude")
                    || (!wkt && CSVColumns.geometryNames.contains(CSVColumns.normalised(name)))
            }
            while taken.contains(name) || isRead(name) {
                suffix += 1
                name = property + "_\(suffix)"
            }
            if name != property { renamed.append(property) }
            add(name, CSVRowSlot.firstProperty + index)
        }
        fallbacks = names.map { name in
            name == titleColumn ? CSVRowSlot.title : name == snippetColumn ? CSVRowSlot.snippet : nil
        }
    }

    /// Appends one row: its cells in the columns' order, then LF.
    func appendRow(_ bytes: [UInt8], _ cells: [Range<Int>?], delimiter: UInt8, to out: inout [UInt8]) {
        let rowStart = out.count
        for (index, slot) in slots.enumerated() {
            if index > 0 { out.append(delimiter) }
            if slot == CSVRowSlot.wkt, cells[slot] == nil, let lon = cells[CSVRowSlot.longitude],
                let lat = cells[CSVRowSlot.latitude]
            {
                // A point among other geometries: its WKT from its longitude and latitude.
                let altitude = cells[CSVRowSlot.altitude]
                out.append(contentsOf: (altitude == nil ? "POINT (" : "POINT Z (").utf8)
                out.append(contentsOf: bytes[lon])
                out.append(0x20)
                out.append(contentsOf: bytes[lat])
                if let altitude {
                    out.append(0x20)
                    out.append(contentsOf: bytes[altitude])
                }
                out.append(UInt8(ascii: ")"))
                continue
            }
            guard let range = cells[slot] ?? fallbacks[index].flatMap({ cells[$0] }) else { continue }
            CSVQuoting.append(bytes[range], delimiter: delimiter, header: false, to: &out)
        }
        // A row of one empty field (one column, nothing in it) is written as "": a blank
        // line is no row to readers (geoconv's and GDAL's skip it), and the feature would be lost.
        if out.count == rowStart { out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")]) }
        out.append(0x0A)
    }
}

/// RFC 4180 quoting.
enum CSVQuoting {
    /// Appends a field, quoted when it holds the delimiter, a quote, CR or LF, or starts or
    /// ends with a space or tab (in the header line, also when it holds any delimiter a
    /// reader might sniff).
    static func append(
        _ field: some BidirectionalCollection<UInt8>, delimiter: UInt8, header: Bool, to out: inout [UInt8]
    ) {
        var needsQuotes = false
        for byte in field
        where byte == delimiter || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
            || (header && CSVDelimiterSniffing.candidates.contains(byte))
        {
            needsQuotes = true
            break
        }
        // An empty text is written "", so that it reads back as text, not as a null (an
        // empty field).
        if !header, field.isEmpty { needsQuotes = true }
        if let first = field.first, first == 0x20 || first == 0x09 { needsQuotes = true }
        if let last = field.last, last == 0x20 || last == 0x09 { needsQuotes = true }
        guard needsQuotes else {
            out.append(contentsOf: field)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in field {
            out.append(byte)
            if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
