package import GeoConvCore

/// The JSON forms geoconv uses in GeoJSON for what only its model has (documented in
/// `docs/formats/geojson.md`): the document's camera (`ModelKey.camera`) and tile layers
/// (`ModelKey.tileLayers`). The names are `ModelKey`'s; style names live in `StyleProperties`.
package enum GeoJSONNames {
    static func number(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }

    /// `{"target":{"latitude":…,"longitude":…},"zoom":…,"bearing":…,"viewingAngle":…}`.
    package static func json(_ camera: CameraPosition) -> JSONValue {
        var target: JSONObject = [
            "latitude": number(camera.target.latitude), "longitude": number(camera.target.longitude),
        ]
        if let altitude = camera.target.altitude { target["altitude"] = number(altitude) }
        return .object([
            "target": .object(target), "zoom": number(camera.zoom), "bearing": number(camera.bearing),
            "viewingAngle": number(camera.viewingAngle),
        ])
    }

    /// Reads a camera written by `json(_:)`; `nil` when it does not fit.
    package static func camera(from value: JSONValue) -> CameraPosition? {
        guard let object = value.objectValue, let target = object["target"]?.objectValue,
            let latitude = target["latitude"]?.doubleValue, let longitude = target["longitude"]?.doubleValue,
            let zoom = object["zoom"]?.doubleValue
        else { return nil }
        return CameraPosition(
            target: Coordinate(latitude: latitude, longitude: longitude, altitude: target["altitude"]?.doubleValue),
            zoom: zoom, bearing: object["bearing"]?.doubleValue ?? 0,
            viewingAngle: object["viewingAngle"]?.doubleValue ?? 0)
    }

    /// Tile layers as JSON (`TileLayer.json`).
    package static func json(_ layers: [TileLayer]) -> JSONValue { TileLayer.json(layers) }

    /// Reads tile layers written by `json(_:)`; `nil` when they do not fit.
    package static func tileLayers(from value: JSONValue) -> [TileLayer]? { TileLayer.layers(fromJSON: value) }
}

extension JSONText {
    /// Indented UTF-8 JSON (two spaces; arrays of numbers on one line).
    package static func pretty(_ value: JSONValue) -> [UInt8] { JSONOutput.prettyPrinted(compact(value), indent: 0) }
}

/// Byte-level JSON output shared by the GeoJSON writers (values and strings come from
/// `JSONText` in the core).
enum JSONOutput {
    static func appendString(_ text: String, to out: inout [UInt8]) { JSONText.appendString(text, to: &out) }
    static func append(_ value: JSONValue, to out: inout [UInt8]) { JSONText.append(value, to: &out) }
    static func appendObject(_ object: JSONObject, to out: inout [UInt8]) { JSONText.appendObject(object, to: &out) }
    static func appendObject(_ properties: MergedProperties, to out: inout [UInt8]) {
        JSONText.appendObject(properties, to: &out)
    }

    /// Re-indents compact JSON with two spaces per level (for `--pretty`).
    static func prettyPrinted(_ compact: [UInt8], indent level: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(compact.count * 2)
        var depth = level
        var inString = false
        var escaped = false
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: depth * 2))
        }
        var index = 0
        while index < compact.count {
            let byte = compact[index]
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                index += 1
                continue
            }
            switch byte {
            case 0x22:
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close: UInt8 = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < compact.count, compact[index + 1] == close {
                    out.append(byte)
                    out.append(close)
                    index += 2
                    continue
                }
                // Keep arrays of numbers (positions, bboxes) on one line.
                if byte == UInt8(ascii: "[") {
                    var end = index + 1
                    while end < compact.count, compact[end] != UInt8(ascii: "]"), compact[end] != UInt8(ascii: "["),
                        compact[end] != UInt8(ascii: "{"), compact[end] != 0x22
                    {
                        end += 1
                    }
                    if end < compact.count, compact[end] == UInt8(ascii: "]") {
                        for b in compact[index...end] {
                            out.append(b)
                            if b == UInt8(ascii: ",") { out.append(0x20) }
                        }
                        index = end + 1
                        continue
                    }
                }
                out.append(byte)
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(byte)
                out.append(0x20)
            default:
                out.append(byte)
            }
            index += 1
        }
        return out
    }
}
