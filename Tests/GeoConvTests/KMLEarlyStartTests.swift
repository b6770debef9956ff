import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// A KML file's start (root, styles, schema) written early, once the first megabyte of
/// placemarks has shown it, and rewritten when a later feature adds to it: the file must
/// be byte for byte what the held-body path writes (to memory, where nothing is rewritten).
@Suite("KML start written early")
struct KMLEarlyStartTests {
    /// 15,000 small points (about 2 MB of KML), and from `lateFrom` on, features that add
    /// styles, a field and a wider type.
    static func input(lateFrom: Int?) -> InputSource {
        var features = (0..<15_000).map { i in
            #"{"type":"Feature","properties":{"n":\#(i)},"geometry":{"type":"Point","coordinates":[\#(Double(i % 360) - 180),\#(Double(i % 170) - 85)]}}"#
        }
        if let lateFrom {
            features[lateFrom] =
                ##"{"type":"Feature","properties":{"n":1.5,"late":"x","stroke":"#ff0000"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"##
            features[lateFrom + 1] =
                ##"{"type":"Feature","properties":{"n":"text","marker-color":"#00ff00"},"geometry":{"type":"Point","coordinates":[0,0,5]}}"##
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
        return .memory(Array(text.utf8), name: "points.geojson")
    }

    @Test(
        "The same file whether the start stays, changes just after it is written, or changes near the end",
        arguments: [nil, 9_000, 14_990])
    func sameBytes(lateFrom: Int?) throws {
        let input = Self.input(lateFrom: lateFrom)
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml)
        options.jobs = 2
        let held = try Converter().convert(input, to: .memory, options: options)
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("out.kml").path
        let written = try Converter().convert(input, to: .file(path), options: options)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 1 << 21, "big enough to be written early: \(bytes.count)")
        #expect(bytes == held.output)
        #expect(written.diagnostics.summary == held.diagnostics.summary)
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if lateFrom != nil {
            // What the late features added is in the start.
            #expect(text.contains(#"<SimpleField name="n" type="string"/>"#))
            #expect(text.contains(#"<SimpleField name="late" type="string"/>"#))
            #expect(text.contains("<Style id="))
            #expect(XMLSchemaValidation.errors(in: bytes, schema: XMLSchemaValidation.kmlSchema).isEmpty)
        } else {
            #expect(text.contains(#"<SimpleField name="n" type="int"/>"#))
            #expect(!text.contains("xmlns:gx"))
        }
    }
}
