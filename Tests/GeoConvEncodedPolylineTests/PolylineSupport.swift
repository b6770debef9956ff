import Foundation
import GeoConvCore
import GeoConvEncodedPolyline
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

/// Whether `point` is inside `ring` (even–odd rule on latitude/longitude as plane coordinates).
func ringContains(_ ring: Path, _ point: Coordinate) -> Bool {
    var inside = false
    var j = ring.count - 1
    for i in 0..<ring.count {
        let a = ring[i]
        let b = ring[j]
        if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
            let x =
                (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
            if point.longitude < x { inside.toggle() }
        }
        j = i
    }
    return inside
}

/// Reads all features of a `.polyline` text.
func readPolylineFeatures(
    _ text: String, precision: Int = 5, skipInvalid: Bool = false
) throws(GeoConvError) -> (features: [Feature], diagnostics: DiagnosticLog) {
    let diagnostics = DiagnosticLog()
    var reader = PolylineFileReader(
        try ByteReader(.memory(Array(text.utf8), name: "test.polyline")),
        options: PolylineFileOptions(precision: precision, skipsInvalidLines: skipInvalid),
        diagnostics: diagnostics)
    _ = try reader.readHeader()
    var features: [Feature] = []
    while let feature = try reader.next() { features.append(feature) }
    return (features, diagnostics)
}
