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
        for (index, (key, path, _)) in CrossFormatTests.files.enumerated() where index % Self.shards == shard {
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

    @Test(
        "KMZ's own losses (local files its icons name, embedded files it drops) listed by info as converting says",
        .enabled(if: Tools.python != nil))
    func kmzOwnLosses() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: folder.appendingPathComponent("icons/present.png"))
        try Data("png".utf8).write(to: directory.appendingPathComponent("outside.png"))
        let placemarks = ["icons/present.png", "icons/missing.png", "../outside.png"].enumerated().map { index, icon in
            "<Placemark><name>p\(index)</name><Style><IconStyle><Icon><href>\(icon)</href></Icon></IconStyle></Style>"
                + "<Point><coordinates>1,\(index)</coordinates></Point></Placemark>\n"
        }
        let kml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
            + placemarks.joined() + "</Document></kml>\n"
        let kmlPath = folder.appendingPathComponent("a.kml").path
        try Data(kml.utf8).write(to: URL(fileURLWithPath: kmlPath))
        // The same document in a KMZ that carries a file under a path climbing out of it.
        let kmzPath = folder.appendingPathComponent("b.kmz").path
        let script = """
            import zipfile
            with zipfile.ZipFile('\(kmzPath)', 'w') as z:
                z.write('\(kmlPath)', 'doc.kml')
                z.writestr('../evil.png', 'x')
                z.writestr('images/fine.png', 'y')
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Tools.python))
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        for (path, unsafeCount) in [(kmlPath, ""), (kmzPath, " (2 times)")] {
            // (With KML among the targets, KMZ's features are written once, by KML's writer.)
            let report = try Converter().inspect(.file(path), targets: ["kml", "kmz"])
            let converted = try Converter().convert(
                .file(path), to: .memory, options: ConversionOptions(outputFormat: .kmz))
            let readingCodes = Set(report.readWarnings.map(code))
            let expected = converted.diagnostics.summary.filter { !readingCodes.contains(code($0)) }
            let losses = try #require(report.losses["kmz"])
            #expect(losses == expected, "\(path)")
            let inFile = path == kmzPath ? "b.kmz/doc.kml" : "a.kml"
            let missing = try #require(losses.first)
            #expect(
                missing.hasSuffix(
                    "\(inFile):4:1: warning: \"icons/missing.png\" is not a file beside the input "
                        + "(\(folder.path)/icons/missing.png): the KMZ refers to a file it does not hold "
                        + "[kmz.local-file-missing]"), "\(missing)")
            let outside = try #require(losses.dropFirst().first)
            #expect(
                outside.hasSuffix(
                    "\(inFile):5:1: warning: the file \"../outside.png\" is outside the input's folder; it is not "
                        + "packed, and the KMZ refers to a file it does not hold [kmz.unsafe-entry-dropped]"
                        + unsafeCount), "\(outside)")
            #expect(losses.count == 2, "\(losses)")
        }
    }

    /// (No transform info runs changes an icon today: this holds the transforms' path of the
    /// twin's checks to the conversion's report, not the transform's effect.)
    @Test("KMZ's own checks in info, on features a transform changes (a circle drawn as a polygon), as converting")
    func kmzChecksTransformedFeatures() throws {
        let folder = try Fixtures.temporaryDirectory()
        let text =
            #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{"geoconv:radius":250,"icon":"icons/gone.png"},"#
            + #""geometry":{"type":"Point","coordinates":[151.2,-33.8]}},"#
            + #"{"type":"Feature","properties":{"icon":"icons/missing.png"},"#
            + #""geometry":{"type":"Point","coordinates":[151.3,-33.9]}}]}"#
        let path = folder.appendingPathComponent("circle.geojson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let report = try Converter().inspect(.file(path), targets: ["kml", "kmz"])
        let converted = try Converter().convert(
            .file(path), to: .memory, options: ConversionOptions(outputFormat: .kmz))
        let losses = try #require(report.losses["kmz"])
        #expect(losses == converted.diagnostics.summary, "\(losses)")
        #expect(losses.contains { $0.contains("[circle.drawn-as-polygon]") }, "\(losses)")
        #expect(
            losses.contains {
                $0.contains("warning: \"icons/gone.png\" is not a file beside the input")
                    && $0.hasSuffix("[kmz.local-file-missing] (2 times)")
            }, "\(losses)")
    }

    @Test("info --jobs 1, --jobs 2 and the default print the same report, losses in the same order; 0 is refused")
    func jobsGiveOneReport() throws {
        // Features of several shapes, each kind of value, a loss here and there: runs are cut
        // across them with two threads.
        var features: [String] = []
        for index in 0..<3000 {
            let geometry =
                switch index % 4 {
                case 0: #"{"type":"Point","coordinates":[\#(index % 360 - 180),\#(index % 170 - 85)]}"#
                case 1: #"{"type":"LineString","coordinates":[[0,0],[1,\#(index % 80)],[2,2,\#(index)]]}"#
                case 2:
                    #"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]}"#
                default: "null"
                }
            let value = index % 7 == 0 ? #""\#(String(repeating: "x", count: 300))""# : "\(index)"
            let nested = index % 11 == 0 ? #","tags":{"a":[1,2]}"# : ""
            features.append(
                #"{"type":"Feature","properties":{"id":\#(index),"v":\#(value),"when":"2024-01-0\#(index % 9 + 1)""#
                    + nested + #"},"geometry":\#(geometry)}"#)
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("mixed.geojson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let one = try CLI.run(["info", path, "--jobs", "1"])
        #expect(one.status == 0)
        #expect(
            one.stdout.contains("features: 3000 (750 Point, 750 LineString, 750 Polygon, 750 null)"), "\(one.stdout)")
        #expect(
            one.stdout.contains(
                "warning: array and object property values are written as JSON text and read back as strings "
                    + "[kml.json-as-text] (273 times)"), "\(one.stdout)")
        // (The shapefile target exists only with the Shapefile trait.)
        #expect(
            one.stdout.contains(
                "cut to 254 (at a character's end): a DBF text field holds no more, the first in feature 1 "
                    + "[shapefile.text-truncated]"
            ) == BuiltTraits.shapefile, "\(one.stdout)")
        for arguments in [["--jobs", "2"], ["-j", "3"], []] {
            let other = try CLI.run(["info", path] + arguments)
            #expect(other.status == 0)
            #expect(other.stdout == one.stdout, "\(arguments)")
        }
        #expect(try CLI.run(["info", path, "--jobs", "0"]).status == 64)
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
