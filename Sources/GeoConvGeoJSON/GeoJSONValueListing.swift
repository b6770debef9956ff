import GeoConvCore

/// GeoJSON's part of the conservation check: every JSON value (`JSONValueListing`), with
/// the ordinates, `bbox` and `crs` member of a document in another CRS marked as reprojected
/// (the writer writes RFC 7946 longitude/latitude: the values change by design, and the
/// reprojection is tested on its own).
enum GeoJSONValueListing {
    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        var values = try JSONValueListing.values(of: input)
        // The legacy `crs` member, gathered back into an object to be read as the reader reads it.
        var crs: JSONObject = [:], properties: JSONObject = [:]
        for value in values {
            guard let pointer = value.pointer, pointer.hasPrefix("/crs/") else { continue }
            let parts = pointer.split(separator: "/").map(String.init)
            if parts.count == 2, parts[1] == "type" { crs["type"] = .string(value.text) }
            if parts.count == 3, parts[1] == "properties" {
                properties[parts[2]] = JSONNumber(literal: value.text).map(JSONValue.number) ?? .string(value.text)
            }
        }
        guard !crs.isEmpty else { return values }
        crs["properties"] = .object(properties)
        let named: String?
        do throws(GeoConvError) {
            named = try GeoJSONReader.legacyCRS(.object(crs), at: SourceLocation())
        } catch {
            named = nil  // the reader refuses it, at its place
        }
        guard named != nil else { return values }
        for index in values.indices {
            guard let pointer = values[index].pointer else { continue }
            if pointer == "/crs" || pointer.hasPrefix("/crs/") || pointer.contains("/coordinates/") || pointer.contains("/bbox") {
                values[index].kind = .reprojected
            }
        }
        return values
    }
}
