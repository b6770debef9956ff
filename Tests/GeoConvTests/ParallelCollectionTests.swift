import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

@testable import GeoConv

/// `--jobs` on a GeoJSON FeatureCollection: the `features` array cut into runs of whole
/// features parsed on other threads must give exactly what one thread gives — output,
/// counts, warnings with their positions and JSON Pointers, and the same error on a broken
/// array.
@Suite("Parallel FeatureCollections (--jobs)")
struct ParallelCollectionTests {
    /// A FeatureCollection of 300 features on one line each, with document members before
    /// and after the array, strings holding brackets, commas and escaped quotes.
    static var collection: String {
        let features = ParallelConversionTests.lines.split(separator: "\n").enumerated().map { index, line -> String in
            index % 60 == 7
                ? line.replacingOccurrences(of: "\"properties\":{", with: #""properties":{"s":"[,]{\"}\\","#)
                : String(line)
        }
        return #"{"type":"FeatureCollection","name":"stops","features":[ "# + "\n" + features.joined(separator: ",\n")
            + "\n],\"extra\":1}\n"
    }

    func convert(
        _ text: String, to output: String, jobs: Int, chunk: Int = 600, skipInvalid: Bool = false, strict: Bool = false
    )
        throws(GeoConvError) -> ConversionReport
    {
        var options = ConversionOptions(
            inputFormat: .geoJSON, outputFormat: FormatRegistry.standard.format(named: output), skipInvalid: skipInvalid
        )
        options.strict = strict
        options.jobs = jobs
        options.chunkBytes = chunk
        return try Converter().convert(.memory(Array(text.utf8), name: "in.geojson"), to: .memory, options: options)
    }

    @Test(
        "Byte-identical to one thread for line and document outputs, with the same warnings",
        arguments: ["geojsonseq", "geojson", "kml", "wkt"])
    func identical(output: String) throws {
        let sequential = try convert(Self.collection, to: output, jobs: 1)
        #expect(sequential.statistics.featuresRead == 300)
        for (jobs, chunk) in [(2, 600), (3, 1), (8, 5000)] {
            let parallel = try convert(Self.collection, to: output, jobs: jobs, chunk: chunk)
            #expect(parallel.output == sequential.output, "→ \(output), --jobs \(jobs), chunks of \(chunk) bytes")
            #expect(parallel.statistics == sequential.statistics)
            // The same warnings (the summary may list reading's and writing's in another order).
            #expect(Set(parallel.diagnostics.entries.keys) == Set(sequential.diagnostics.entries.keys))
            #expect(!sequential.diagnostics.entries.isEmpty)
            for (code, entry) in sequential.diagnostics.entries {
                #expect(parallel.diagnostics.entries[code]?.first.location == entry.first.location, "\(code)")
                #expect(parallel.diagnostics.entries[code]?.count == entry.count, "\(code)")
            }
        }
    }

    /// 400 features for KML's placemarks written on the workers: most plain, and among them
    /// what the document's writer must see itself (string ids, one repeated; folders; gx
    /// tracks) or learn from them in order (two shared styles; values it reports; fields
    /// whose type widens late).
    static var kmlMix: String {
        let features = (0..<400).map { i -> String in
            var properties = [#""n":\#(i)"#, #""label":"stop \#(i)""#]
            var id = i % 50 == 3 ? #""id":"p\#(i / 100)","# : (i % 7 == 0 ? #""id":\#(i),"# : "")  // p0 twice, p1…
            switch i {
            case 120: properties[0] = #""n":1.5"#  // int widens to double
            case 310: properties[0] = #""n":true"#  // and then to text, with a warning
            // a field first seen late, int then string
            case 200...: properties.append(#""late":\#(i % 3 == 0 ? "\"x\"" : "\(i)")"#)
            default: break
            }
            switch i % 40 {
            case 5:
                properties.append(
                    i % 80 == 5 ? ##""marker-color":"#ff0000""## : ##""marker-color":"#00ff00","stroke-width":2"##)
            case 9: properties.append(#""name":"Stop \#(i)""#)
            case 13: properties.append(#""geoconv:folder":["Routes","Inner"]"#)
            case 17: properties.append(#""bad":"a\u0001b""#)
            case 21: properties.append(#""gone":null"#)
            case 25: properties.append(#""big":12345678901234567890"#)
            case 29: properties.append(#""obj":{"a":[1]}"#)
            case 33:
                properties.append(#""coordinateProperties":{"times":["2020-01-01T00:00:00Z","2020-01-01T00:01:00Z"]}"#)
            default: break
            }
            if i == 390 { id = #""id":"p0","# }  // a repeated id, long after the first
            let (x, y) = (Double(i) / 10, Double(i % 60) - 30)
            let geometry =
                i % 40 == 33  // a track (gx:Track)
                ? #"{"type":"LineString","coordinates":[[\#(x),\#(y)],[\#(x + 0.1),\#(y)]]}"#
                : #"{"type":"Point","coordinates":[\#(x),\#(y)]}"#
            return
                #"{"type":"Feature",\#(id)"properties":{\#(properties.joined(separator: ","))},"geometry":\#(geometry)}"#
        }
        return #"{"type":"FeatureCollection","name":"mix","features":["# + "\n" + features.joined(separator: ",\n")
            + "\n]}\n"
    }

    @Test("KML placemarks written on the workers: the same bytes, schema and warnings at the same places as one thread")
    func kmlPlacemarksOnWorkers() throws {
        let one = try convert(Self.kmlMix, to: "kml", jobs: 1)
        #expect(one.statistics.featuresRead == 400)
        for (jobs, chunk) in [(2, 1), (2, 800), (3, 4000), (8, 100_000)] {
            let parallel = try convert(Self.kmlMix, to: "kml", jobs: jobs, chunk: chunk)
            #expect(parallel.output.elementsEqual(one.output), "--jobs \(jobs), chunks of \(chunk) bytes")
            #expect(
                Array(parallel.diagnostics.entries.keys) == Array(one.diagnostics.entries.keys),
                "--jobs \(jobs), chunks of \(chunk)")
            for (code, entry) in one.diagnostics.entries {
                #expect(
                    parallel.diagnostics.entries[code]?.first.location == entry.first.location,
                    "\(code), --jobs \(jobs), chunks of \(chunk)")
                #expect(parallel.diagnostics.entries[code]?.count == entry.count, "\(code)")
            }
        }
        // What one thread writes, checked: every kind was met, at its feature.
        let text = String(decoding: one.output, as: UTF8.self)
        #expect(text.contains(#"<SimpleField name="n" type="string"/>"#))
        #expect(text.contains(#"<SimpleField name="late" type="string"/>"#))
        #expect(text.contains("<gx:Track>"))
        #expect(text.contains(#"<Placemark id="p0">"#))
        #expect(text.contains(#"<Style id="s1">"#) && text.contains(#"<Style id="s2">"#))
        let mixed = try #require(one.diagnostics.entries["kml.mixed-types"])
        #expect(mixed.count == 2)  // "late" at its first string, "n" at feature 310
        #expect(mixed.first.location?.pointer == "/features/201")
        #expect(one.diagnostics.entries["kml.duplicate-id"]?.first.location?.pointer == "/features/53")
        for code in ["kml.control-characters-dropped", "kml.null-dropped", "kml.number-as-text", "kml.json-as-text"] {
            #expect(one.diagnostics.entries[code] != nil, "\(code)")
        }
        #expect(XMLSchemaValidation.errors(in: one.output, schema: XMLSchemaValidation.kmlSchema).isEmpty)
        // Under --strict, the first loss fails the conversion at its feature, whoever wrote it.
        let strictOne = #expect(throws: GeoConvError.self) {
            try convert(Self.kmlMix, to: "kml", jobs: 1, strict: true)
        }
        #expect(strictOne?.code == .dataLoss)
        #expect(strictOne?.location?.pointer == "/features/17")  // the first control character
        for (jobs, chunk) in [(2, 1), (3, 4000)] {
            let strictParallel = #expect(throws: GeoConvError.self) {
                try convert(Self.kmlMix, to: "kml", jobs: jobs, chunk: chunk, strict: true)
            }
            #expect(strictParallel?.message == strictOne?.message)
            #expect(strictParallel?.location == strictOne?.location)
        }
    }

    /// Styled placemarks written on the workers name the shared styles the document's writer
    /// has given ids at once, and leave the places of the others to it: styles alternating
    /// feature by feature, one met first in the last features, one met again after a long gap.
    @Test("KML styles given ids on one thread and named on the workers: one thread's bytes")
    func kmlStylesNamedOnWorkers() throws {
        let colours = ["#ff0000", "#00ff00", "#0000ff"]
        let features = (0..<3000).map { i -> String in
            let colour = i >= 2900 ? "#ffff00" : (i % 1000 == 500 ? "#00ffff" : colours[i % 3])
            return #"{"type":"Feature","properties":{"n":\#(i),"marker-color":"\#(colour)"},"#
                + #""geometry":{"type":"Point","coordinates":[\#(Double(i) / 100),1]}}"#
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
        let one = try convert(text, to: "kml", jobs: 1)
        let kml = String(decoding: one.output, as: UTF8.self)
        #expect(kml.components(separatedBy: "<Style id=").count == 6, "five shared styles")
        #expect(kml.components(separatedBy: "<styleUrl>#s").count == 3001, "every placemark names one")
        // (s1…s3 in turn, s4 at feature 500 and again at 1500, s5 from feature 2900 on.)
        let named = kml.components(separatedBy: "<styleUrl>#").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(named.prefix(4) == ["s1", "s2", "s3", "s1"] && named[500] == "s4" && named[1500] == "s4")
        #expect(named[2899] == "s2" && named[2900] == "s5" && named.last == "s5")
        for (jobs, chunk) in [(2, 1), (2, 700), (3, 5000), (8, 100_000)] {
            let parallel = try convert(text, to: "kml", jobs: jobs, chunk: chunk)
            #expect(parallel.output.elementsEqual(one.output), "--jobs \(jobs), chunks of \(chunk) bytes")
        }
    }

    @Test(
        "What the writer drops from a feature written here is placed at that feature, as on one thread",
        arguments: ["kml", "gpx", "polyline"])
    func writerWarningsPlaced(output: String) throws {
        var lines = Self.collection.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Line 252 is /features/250: a null KML and GPX cannot hold, and nothing before it.
        lines[251] = lines[251].replacingOccurrences(of: "\"properties\":{", with: #""properties":{"gone":null,"#)
        let text = lines.joined(separator: "\n")
        let one = try convert(text, to: output, jobs: 1)
        for (jobs, chunk) in [(2, 600), (3, 1)] {
            let parallel = try convert(text, to: output, jobs: jobs, chunk: chunk)
            #expect(parallel.output == one.output)
            for (code, entry) in one.diagnostics.entries {
                #expect(
                    parallel.diagnostics.entries[code]?.first.location == entry.first.location,
                    "\(code), --jobs \(jobs)")
                if entry.first.location?.pointer != nil {
                    #expect(parallel.diagnostics.entries[code]?.first.location != nil, "\(code) has a place")
                }
            }
        }
        if output == "kml" {
            let dropped = try #require(one.diagnostics.entries["kml.null-dropped"]?.first.location)
            #expect(dropped.line == 252 && dropped.pointer == "/features/250", "\(dropped)")
        }
    }

    @Test("A bad feature is reported at its line, column and /features/N, and skipped alike")
    func positions() throws {
        var lines = Self.collection.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[201] = lines[201].replacingOccurrences(of: "\"coordinates\":[", with: "\"coordinates\":[\"x\",")
        let text = lines.joined(separator: "\n")
        let one = #expect(throws: GeoConvError.self) { try convert(text, to: "geojsonseq", jobs: 1) }
        let two = #expect(throws: GeoConvError.self) { try convert(text, to: "geojsonseq", jobs: 2) }
        #expect(one?.location?.line == 202)
        #expect(one?.location?.pointer?.hasPrefix("/features/200") == true)
        #expect(two?.location == one?.location)
        #expect(two?.message == one?.message)
        let skippedOne = try convert(text, to: "geojsonseq", jobs: 1, skipInvalid: true)
        let skippedTwo = try convert(text, to: "geojsonseq", jobs: 2, skipInvalid: true)
        #expect(skippedTwo.output == skippedOne.output)
        #expect(skippedTwo.diagnostics.skippedFeatures == skippedOne.diagnostics.skippedFeatures)
        #expect(skippedOne.diagnostics.skippedFeatures.first?.location?.line == 202)
    }

    @Test(
        "A broken array fails with the same error and position as one thread",
        arguments: [
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null},]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null},,{"type":"Feature","properties":{},"geometry":null}]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null}}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":"#,
            #"{"type":"FeatureCollection","features":[,]}"#,
            #"{"type":"FeatureCollection","features":[1]}"#,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null}]} x"#,
        ])
    func broken(text: String) throws {
        let one = #expect(throws: GeoConvError.self) { try convert(text, to: "geojsonseq", jobs: 1) }
        let two = #expect(throws: GeoConvError.self) { try convert(text, to: "geojsonseq", jobs: 2, chunk: 1) }
        #expect(two?.code == one?.code)
        #expect(two?.message == one?.message)
        #expect(two?.location == one?.location)
    }

    @Test("Empty arrays, a lone Feature and a collection with a crs go the one-thread way and read alike")
    func others() throws {
        for text in [
            #"{"type":"FeatureCollection","features":[]}"#, #"{"type":"FeatureCollection","features":[  ]}"#,
            #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
            #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[111319.49,222684.21]}}]}"#,
        ] {
            let one = try convert(text, to: "geojson", jobs: 1)
            let two = try convert(text, to: "geojson", jobs: 2, chunk: 1)
            #expect(two.output == one.output)
            #expect(two.statistics == one.statistics)
        }
    }
}
