import GeoConvCore

/// Garmin's TrackPointExtension (schemas v1 and v2), the per-point sensor values of GPS
/// watches and bike computers (heart rate, cadence, temperature…), as per-point values.
///
/// Reading, a route or track point's `<extensions><TrackPointExtension>` whose children
/// are all numbers of the schema becomes per-point values named as Google Earth names
/// KML's `gx:SimpleArrayData` (`heartrate`, `cadence`, `temperature`…), so a track reads
/// the same from GPX as from KML and converts to each (`coordinateProperties` in
/// GeoJSON). Writing, per-point numbers under those names (or a common alias such as
/// `heart_rate` or `hr`) go into a TrackPointExtension — v1 when they fit it, v2 when
/// speed, course or bearing is among them — and any other per-point value into a GDAL
/// field (`<ogr:name>`), as before.
enum GarminTrackPointExtension {
    static let v1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
    static let v2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    /// The schema's elements in its order, with the per-point value each is read as; v1
    /// has the first five.
    static let fields: [(element: String, property: String)] = [
        ("atemp", "temperature"), ("wtemp", "watertemperature"), ("depth", "depth"), ("hr", "heartrate"),
        ("cad", "cadence"),
        ("speed", "speed"), ("course", "course"), ("bearing", "bearing"),
    ]
    static let v1Count = 5

    /// Per-point value names written as an element, by their letters in lower case without
    /// `_`, `-` or spaces: the names above, the elements' own names and common spellings.
    private static let aliases: [String: Int] = {
        var table: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            table[field.property] = index
            table[field.element] = index
        }
        table["heart"] = 3
        table["airtemperature"] = 0
        table["temp"] = 0
        table["watertemp"] = 1
        return table
    }()

    /// The index in `fields` of the element a per-point value named `name` is written as.
    static func fieldIndex(for name: String) -> Int? {
        var key = ""
        for scalar in name.unicodeScalars where scalar != "_" && scalar != "-" && scalar != " " {
            key.unicodeScalars.append(scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar)
        }
        return aliases[key]
    }

    /// Moves the values of a point's TrackPointExtension from its `extensions` to its
    /// fields, when every child is a number of the schema (otherwise it stays an extension,
    /// written back as read).
    static func take(from point: inout JSONObject) {
        guard var extensions = point["extensions"]?.objectValue,
            let object = extensions["TrackPointExtension"]?.objectValue,
            let namespace = object["@xmlns"]?.stringValue, namespace == v1 || namespace == v2
        else { return }
        var values: [(String, JSONValue)] = []
        for (key, value) in object where key != "@xmlns" {
            guard let index = fields.firstIndex(where: { $0.element == key }), namespace == v2 || index < v1Count,
                let text = value.stringValue, let number = JSONNumber(literal: text.trimmed),
                point[fields[index].property] == nil
            else { return }
            values.append((fields[index].property, .number(number)))
        }
        for (name, value) in values { point[name] = value }
        extensions.removeValue(forKey: "TrackPointExtension")
        point["extensions"] = extensions.isEmpty ? nil : .object(extensions)
    }

    /// Takes the values of `point` that are written in a TrackPointExtension out of it and
    /// appends the element (with its namespace as the default, as other extensions are
    /// written); the names read back differently are returned (for a note).
    /// `fieldIndex` gives each name's element (the caller remembers them: a line's points
    /// share their names, and spelling a name in lower case allocates).
    static func write(from point: inout JSONObject, to out: inout [UInt8], fieldIndex: (String) -> Int?) -> [String] {
        var chosen: [(index: Int, name: String, number: JSONNumber)] = []
        for (name, value) in point {
            guard case .number(let number) = value, let index = fieldIndex(name),
                !chosen.contains(where: { $0.index == index })
            else { continue }
            chosen.append((index, name, number))
        }
        guard !chosen.isEmpty else { return [] }
        chosen.sort { $0.index < $1.index }
        let namespace = chosen.contains { $0.index >= v1Count } ? v2 : v1
        out.append(contentsOf: "<TrackPointExtension xmlns=\"\(namespace)\">".utf8)
        var renamed: [String] = []
        for (index, name, number) in chosen {
            let element = fields[index].element
            out.append(contentsOf: "<\(element)>\(number.literal)</\(element)>".utf8)
            point.removeValue(forKey: name)
            if name != fields[index].property { renamed.append(name) }
        }
        out.append(contentsOf: "</TrackPointExtension>".utf8)
        return renamed
    }
}
