import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `geoconv info` counts what each writer would lose without writing (issue 44): on every
/// corpus file, what it lists for each target must be what converting the file to that target
/// reports, message for message, count for count, in the same order.
@Suite("info's losses on the corpora")
struct InspectionCorpusTests {
    /// The corpus files, in eight shards run side by side.
    static let shards = 8

    @Test(
        "Every corpus file: info's losses for each target are the conversion's warnings",
        arguments: 0..<shards)
    func lossesMatchConversions(_ shard: Int) throws {
        var files = 0
        var compared = 0
        for (index, (key, path)) in CrossFormatTests.files.enumerated() where index % Self.shards == shard {
            let report: InspectionReport
            do {
                report = try Converter().inspect(.file(path))
            } catch {
                continue  // (a file geoconv refuses: the conservation check holds it to its reason)
            }
            files += 1
            let readingCodes = Set(report.readWarnings.map(code))
            for format in FormatRegistry.standard.formats where format.makeWriter != nil {
                guard let losses = report.losses[format.name] else { continue }
                let converted: ConversionReport
                do {
                    converted = try Converter().convert(
                        .file(path), to: .memory,
                        options: ConversionOptions(outputFormat: format))
                } catch {
                    // A refusal: info names it under the target's own code.
                    #expect(losses.contains { $0.contains(".refused]") }, "\(key) → \(format.name): \(error)")
                    continue
                }
                // (Reading's own warnings are listed once, apart: "beyond reading". A code both
                // reading and writing report is counted as one in the conversion: left out.)
                let beyondReading = { (line: String) in !readingCodes.contains(code(line)) }
                let expected = converted.diagnostics.summary.filter(beyondReading)
                let listed = losses.filter(beyondReading)
                if Set(expected.compactMap(file)).count > 1 {
                    // Places in several files of an archive (a KMZ's linked KML files) are ranked by
                    // the order the log met the files, reading's messages included: the lines
                    // must be the same, their order may differ.
                    #expect(listed.sorted() == expected.sorted(), "\(key) → \(format.name)")
                } else {
                    #expect(listed == expected, "\(key) → \(format.name)")
                }
                compared += 1
            }
        }
        print("info on the corpora, shard \(shard): \(files) files, \(compared) targets compared")
        #expect(files > 50)
    }

    @Test("A longitude of 180 is counted per position, by info as by the GPX conversion")
    func longitude180PerPosition() throws {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":"#
            + #"{"type":"LineString","coordinates":[[180,1],[179,2],[180,3]]}}]}"#
        let input = InputSource.memory(Array(text.utf8), name: "in.geojson")
        let report = try Converter().inspect(input, targets: ["gpx"])
        let converted = try Converter().convert(input, to: .memory, options: ConversionOptions(outputFormat: .gpx))
        #expect(report.losses["gpx"] == converted.diagnostics.summary)
        #expect(report.losses["gpx"]?.first?.hasSuffix("[gpx.longitude-180] (2 times)") == true, "\(report.losses)")
    }

    @Test("What a reader says between features is placed by the reader, in info as in a conversion")
    func readerMessagesPlacedByTheReader() throws {
        // The KMZ follows its NetworkLinks while it reads: the note that it does comes with no
        // place of its own (not the place of the feature read before it).
        let path = Fixtures.testdata("kml/superoverlay.kmz")
        let report = try Converter().inspect(.file(path), targets: ["geojson"])
        let converted = try Converter().convert(
            .file(path), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSON))
        let followed = report.readWarnings.filter { $0.contains("[kmz.network-link-followed]") }
        #expect(followed.count == 1 && followed.first?.hasPrefix("note:") == true, "\(report.readWarnings)")
        #expect(report.readWarnings == converted.diagnostics.summary, "\(report.readWarnings)")
    }

    @Test("info --to names its targets, the input's own format among them when asked; an unknown name is refused")
    func chosenTargets() throws {
        let path = Fixtures.testdata("geojson/faithful.geojson")
        let report = try Converter().inspect(.file(path), targets: ["kml", "geojson"])
        #expect(Array(report.losses.keys) == ["geojson", "kml"])
        #expect(report.losses["geojson"]?.contains { $0.contains("[geojson.circle-as-point]") } == true)
        #expect(throws: GeoConvError.self) { try Converter().inspect(.file(path), targets: ["kmlx"]) }
    }

    /// The file of a summary line's place (`path:line:column: …`), `nil` when it has none.
    private func file(_ line: String) -> Substring? {
        guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("warning:"), !line.hasPrefix("note:") else {
            return nil
        }
        return line[..<colon]
    }

    /// The code of a summary line: `… [code]` or `… [code] (n times)`.
    private func code(_ line: String) -> Substring {
        guard let close = line.lastIndex(of: "]"), let open = line[..<close].lastIndex(of: "[") else { return "" }
        return line[line.index(after: open)..<close]
    }
}
