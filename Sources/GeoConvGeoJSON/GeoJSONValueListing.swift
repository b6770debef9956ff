import GeoConvCore
import GeoConvFormatKit
import GeoConvIO

/// GeoJSON's part of the conservation check: every JSON value (`JSONValueListing`), with
/// the ordinates, `bbox` and `crs` member of a document in another CRS marked as reprojected
/// (the writer writes RFC 7946 longitude/latitude: the values change by design, and the
/// reprojection is tested on its own), and a `crs` member naming WGS84 marked the same way
/// (RFC 7946 output is in that CRS and has no `crs` member).
enum GeoJSONValueListing {
    static func values(of input: ByteReader) throws(GeoConvError) -> [ListedValue] {
        var values = try JSONValueListing.values(of: input)
        // The legacy `crs` member, gathered back into an object to be read as the reader reads it.
        var crs: JSONObject = [:]
        var properties: JSONObject = [:]
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
            return values  // the reader refuses it, at its place
        }
        // A `crs` naming WGS84 longitude/latitude (`nil`: CRS84, EPSG:4326) names the CRS that
        // RFC 7946 output is in without the member (§4): carried by design, like the
        // description of a CRS the output is reprojected from.
        for index in values.indices {
            guard let pointer = values[index].pointer else { continue }
            let isCRS = pointer == "/crs" || pointer.hasPrefix("/crs/")
            if isCRS || (named != nil && (pointer.contains("/coordinates/") || pointer.contains("/bbox"))) {
                values[index].kind = .reprojected
            }
        }
        return values
    }
}
