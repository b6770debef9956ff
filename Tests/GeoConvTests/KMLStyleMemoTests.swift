import Foundation
import GeoConv
import Testing

/// The KML writer remembers the style box it wrote last (style rules and classes give
/// thousands of features one box): what it remembers must never change what a feature
/// writes. Each placemark is the one the feature writes alone, whatever came before it.
@Suite("KML style memo")
struct KMLStyleMemoTests {
    /// Points: two plain ones (one box), one with a marker symbol (another box), one the
    /// second rule matches, with a z-index KML keeps in ExtendedData (a third box).
    static let features = [
        #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
        #"{"type":"Feature","properties":{"n":2},"geometry":{"type":"Point","coordinates":[3,4]}}"#,
        #"{"type":"Feature","properties":{"n":3,"marker-symbol":"star"},"#
            + #""geometry":{"type":"Point","coordinates":[5,6]}}"#,
        #"{"type":"Feature","properties":{"n":40},"geometry":{"type":"Point","coordinates":[7,8]}}"#,
    ]

    /// Each placemark's text, its `<styleUrl>` replaced by the text of the `<Style>` it names
    /// (ids are given in the order styles are met: placemarks are compared by their styles).
    static func placemarks(_ features: [String]) throws -> [String] {
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let rules = try StyleRules([
            StyleRule("*: marker-color=#ff0000"), StyleRule("n >= 40: marker-color=blue z-index=3"),
        ])
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml)
        options.jobs = 1
        let report = try Converter().convert(
            .memory(Array(text.utf8), name: "in.geojson"), to: .memory, options: options, transforms: [rules])
        let kml = String(decoding: report.output, as: UTF8.self)
        var styles: [String: String] = [:]
        for part in kml.components(separatedBy: "<Style id=\"").dropFirst() {
            let id = part.prefix { $0 != "\"" }
            let body = part.drop { $0 != ">" }.dropFirst()  // (after the id)
            styles["#" + id] = body.components(separatedBy: "</Style>").first ?? ""
        }
        return kml.components(separatedBy: "<Placemark").dropFirst().map { part in
            var placemark = part.components(separatedBy: "</Placemark>").first ?? ""
            for (id, style) in styles {
                placemark = placemark.replacingOccurrences(
                    of: "<styleUrl>\(id)</styleUrl>", with: "<styleUrl>\(style)</styleUrl>")
            }
            return placemark
        }
    }

    @Test("Each placemark is the one its feature writes alone, in any order")
    func placemarksStandAlone() throws {
        let alone = try Self.features.map { try Self.placemarks([$0]).first ?? "" }
        // (The marker symbol is written in ExtendedData; the feature's style is another box.)
        #expect(!alone[0].contains("star") && alone[2].contains("star"))
        // (A z-index has no KML element either: kept in ExtendedData, for the second rule's box.)
        #expect(!alone[0].contains("z-index") && alone[3].contains("z-index"))
        #expect(alone[0].contains("ff0000ff") && alone[3].contains("ffff0000"), "each its rule's colour")
        #expect(alone[0].contains("<styleUrl>") && alone[3].contains("<styleUrl>"))
        for order in [[0, 1, 2, 3], [1, 0, 3, 2], [3, 0, 0, 1, 2], [2, 2, 1, 1, 0], [0, 3, 0, 3, 1]] {
            let written = try Self.placemarks(order.map { Self.features[$0] })
            #expect(written.count == order.count)
            for (place, index) in order.enumerated() where place < written.count {
                #expect(written[place] == alone[index], "feature \(index) at \(place) of \(order)")
            }
        }
    }
}
