import Foundation
import GeoConv
import Testing

/// The KML writer remembers the style box it wrote last (style rules and classes give
/// thousands of features one box): what it remembers must never change what a feature
/// writes. Each placemark is the one the feature writes alone, whatever came before it.
@Suite("KML style memo")
struct KMLStyleMemoTests {
    /// Points: two plain ones (one box), one with a style field KML keeps in ExtendedData
    /// (another box, asked apart), one the second rule matches (a third box).
    static let features = [
        #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
        #"{"type":"Feature","properties":{"n":2},"geometry":{"type":"Point","coordinates":[3,4]}}"#,
        #"{"type":"Feature","properties":{"n":3,"marker-symbol":"star"},"#
            + #""geometry":{"type":"Point","coordinates":[5,6]}}"#,
        #"{"type":"Feature","properties":{"n":40},"geometry":{"type":"Point","coordinates":[7,8]}}"#,
    ]

    static func placemarks(_ features: [String]) throws -> [String] {
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let rules = try StyleRules([StyleRule("*: marker-color=#ff0000"), StyleRule("n >= 40: marker-color=blue")])
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml)
        options.jobs = 1
        let report = try Converter().convert(
            .memory(Array(text.utf8), name: "in.geojson"), to: .memory, options: options,
            transforms: [rules])
        let kml = String(decoding: report.output, as: UTF8.self)
        return kml.components(separatedBy: "<Placemark").dropFirst().map {
            $0.components(separatedBy: "</Placemark>").first ?? ""
        }
    }

    @Test("Each placemark is the one its feature writes alone, in any order")
    func placemarksStandAlone() throws {
        let alone = try Self.features.map { try Self.placemarks([$0]).first ?? "" }
        // (A marker symbol has no KML element: it is kept in ExtendedData, its style another box.)
        #expect(!alone[0].contains("star") && alone[2].contains("star"))
        #expect(alone[0].contains("<styleUrl>") && alone[3].contains("<styleUrl>"))
        for order in [[0, 1, 2, 3], [1, 0, 3, 2], [3, 0, 0, 1, 2], [2, 2, 1, 1, 0]] {
            let written = try Self.placemarks(order.map { Self.features[$0] })
            #expect(written.count == order.count)
            for (place, index) in order.enumerated() where place < written.count {
                // (Style ids are given in the order styles are met: compared without them.)
                #expect(
                    Self.withoutStyleIDs(written[place]) == Self.withoutStyleIDs(alone[index]),
                    "feature \(index) at \(place) of \(order)")
            }
        }
    }

    static func withoutStyleIDs(_ placemark: String) -> String {
        placemark.replacingOccurrences(of: #"#s[0-9]+"#, with: "#s", options: .regularExpression)
    }
}
