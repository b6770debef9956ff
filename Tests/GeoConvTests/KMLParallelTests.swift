import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

@testable import GeoConv
@testable import GeoConvKML

/// `--jobs` on KML: long runs of Placemarks cut out of the document and read on other
/// threads must give exactly what one thread reads — features, folders, styles known so
/// far, warnings and errors at their lines and columns.
@Suite("Parallel KML (--jobs)")
struct KMLParallelTests {
    /// A document whose Placemarks make several runs: folders, a shared style and schema,
    /// a style defined after Placemarks that use it, CDATA holding markup, comments among
    /// the Placemarks, an unknown altitude mode, gx:Track, and an empty Placemark.
    static func document(badCoordinatesAt bad: Int? = nil) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">"#,
            "<Document><name>runs</name>",
            #"<Style id="s1"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle></Style>"#,
            // Used by no Placemark (reported at the end), and by one inside a run (not reported).
            #"<Style id="never"><LineStyle><width>9</width></LineStyle></Style>"#,
            #"<Style id="mid"><LineStyle><width>5</width></LineStyle></Style>"#,
            #"<Schema name="t" id="t"><SimpleField name="n" type="int"/><SimpleField name="label" type="string"/></Schema>"#,
        ]
        func placemark(_ i: Int, style: String = "#s1") -> String {
            var text = #"<Placemark id="p\#(i)"><name>place \#(i)</name><styleUrl>\#(style)</styleUrl>"#
            if i % 97 == 0 { text += "<description><![CDATA[<b>bold</b> </Placemark> <Placemark> ]]></description>" }
            if i % 89 == 5 { text += "<!-- inside: </Placemark> <Placemark> \"' -->" }
            text += ##"<ExtendedData><SchemaData schemaUrl="#t"><SimpleData name="n">\##(i)</SimpleData>"##
            text += #"<SimpleData name="label">a &amp; b \#(i)</SimpleData></SchemaData></ExtendedData>"#
            let coordinates = i == bad ? "1,x" : "\(Double(i) / 100),\(Double(i % 50) / 10)"
            if i % 211 == 0 {
                text +=
                    "<gx:Track><when>2020-01-01T00:00:0\(i % 10)Z</when><gx:coord>\(Double(i) / 100) 1 0</gx:coord></gx:Track>"
            } else if i % 301 == 0 {
                text += "<Point><altitudeMode>floating</altitudeMode><coordinates>\(coordinates)</coordinates></Point>"
            } else if i % 83 == 7, style == "#s1" {
                // Quoted '>' and "/>" in a start tag over two lines (the style s1's own width: the
                // merge changes nothing, so the placemark keeps its styleUrl).
                text +=
                    #"<Style id="q>\#(i)/>"\#n  ><LineStyle><width>3</width></LineStyle></Style><Point><coordinates>\#(coordinates)</coordinates></Point>"#
            } else {
                text += "<Point><coordinates>\(coordinates)</coordinates></Point>"
            }
            text += "</Placemark>"
            // Every third one indented over several lines, as GDAL and Google Earth write them.
            return i % 3 == 1 ? text.replacingOccurrences(of: "><", with: ">\n    <") : text
        }
        lines.append("<Folder><name>first</name>")
        for i in 0..<1_600 {
            lines.append(placemark(i, style: i == 1_000 ? "#mid" : "#s1"))
            if i % 500 == 250 { lines.append("<!-- a comment among them -->") }
        }
        lines.append("</Folder><Folder><name>second</name>")
        for i in 1_600..<1_700 { lines.append(placemark(i, style: "#s2")) }  // s2 is not known yet
        lines.append(#"<Style id="s2"><PolyStyle><color>7f00ff00</color></PolyStyle></Style>"#)
        // Too few to make a run, between two runs: read by the document's own reader.
        lines.append("<Folder><name>pair</name>")
        for i in 5_000..<5_003 { lines.append(placemark(i)) }
        lines.append("</Folder>")
        for i in 1_700..<2_400 { lines.append(placemark(i, style: "#s2")) }
        lines.append("<Folder><name>inner</name>")
        for i in 2_400..<3_200 { lines.append("  " + placemark(i)) }
        // Read by the document's own reader, between runs: a dropped element, a few
        // Placemarks (too few to make a run) whose style is unknown.
        lines.append("<PhotoOverlay><name>logo</name></PhotoOverlay>")
        lines.append("<Folder><name>few</name>")
        for i in 3_200..<3_205 { lines.append(placemark(i, style: "#s3")) }
        lines.append("</Folder>")
        lines.append("<Placemark/>")
        lines.append("</Folder></Folder></Document></kml>")
        return lines.joined(separator: "\n") + "\n"
    }

    func convert(_ text: String, jobs: Int, strict: Bool = false) throws(GeoConvError) -> ConversionReport {
        var options = ConversionOptions(inputFormat: .kml, outputFormat: .geoJSON)
        options.strict = strict
        options.jobs = jobs
        return try Converter().convert(.memory(Array(text.utf8), name: "in.kml"), to: .memory, options: options)
    }

    @Test("Runs read on other threads give one thread's features, folders, styles and warnings")
    func identical() throws {
        let text = Self.document()
        #expect(text.utf8.count > 3 * (256 << 10))  // several runs
        let one = try convert(text, jobs: 1)
        #expect(one.statistics.featuresWritten == 3_209)
        for jobs in [2, 4] {
            let many = try convert(text, jobs: jobs)
            #expect(many.output == one.output, "--jobs \(jobs)")
            #expect(Array(many.diagnostics.entries.keys) == Array(one.diagnostics.entries.keys))
            for (code, entry) in one.diagnostics.entries {
                #expect(many.diagnostics.entries[code]?.count == entry.count, "\(code)")
                #expect(many.diagnostics.entries[code]?.first.location == entry.first.location, "\(code)")
            }
        }
        let (_, features, _) = try FormatIO.read(bytes: one.output, as: .geoJSON)
        #expect(features[1_650].properties["geoconv:folder"] == ["second"])
        #expect(features[2_500].properties["geoconv:folder"] == ["second", "inner"])
        #expect(features[1_800].style.fillColor != nil)  // s2 known from here on
        #expect(features[194].snippet == "<b>bold</b> </Placemark> <Placemark> ")
        // s3, defined nowhere (s2, defined further on, is applied)
        #expect(one.diagnostics.entries["kml.style-unresolved"]?.count == 5)
        #expect(
            features[1_600].style.fillColor != nil && features[1_600].style.fillColor == features[1_800].style.fillColor
        )  // s2 applied before its Style
        #expect(one.diagnostics.entries["kml.photooverlay-dropped"]?.count == 1)
        // The style no Placemark uses is reported once every run has been read, as one thread does.
        #expect(one.diagnostics.entries["kml.unused-style-dropped"]?.count == 1)
        #expect(one.diagnostics.entries["kml.unused-style-dropped"]?.first.message.contains("\"never\"") == true)
        #expect(features[1_701].properties["geoconv:folder"] == ["second", "pair"])
        #expect(features[3_205].properties["geoconv:folder"] == ["second", "inner", "few"])
    }

    @Test("A line a warning names inside a run is the input's, with one thread or several")
    func lineNamedInARun() throws {
        // An empty <gx:coord> in a Placemark of a run: the warning names the line it is on.
        let track =
            "<Placemark><gx:Track><when>2020-01-01T00:00:00Z</when><when>2020-01-01T00:01:00Z</when>\n"
            + "<gx:coord>1 2 0</gx:coord><gx:coord></gx:coord></gx:Track></Placemark>"
        let text = Self.document().replacingOccurrences(of: #"<Placemark id="p1200">"#, with: track + "\n<Placemark>")
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            $0.contains("<gx:coord></gx:coord>")
        }.map { $0 + 1 }
        #expect((line ?? 0) > 1_000)  // well inside the runs
        for jobs in [1, 2] {
            let report = try convert(text, jobs: jobs)
            let entry = report.diagnostics.entries["kml.empty-coord-dropped"]
            #expect(entry?.count == 1, "--jobs \(jobs)")
            #expect(entry?.first.message.contains("<gx:coord> (line \(line ?? 0));") == true, "--jobs \(jobs)")
            #expect(entry?.first.location?.line == (line ?? 0) - 1, "--jobs \(jobs)")
        }
    }

    @Test("Reprojected (transforms on one thread): runs parsed on the workers, one thread's output and messages")
    func reprojectedRuns() throws {
        let text = Self.document()
        func convert(jobs: Int) throws -> ConversionReport {
            var options = ConversionOptions(inputFormat: .kml, outputFormat: .wkt)
            options.targetCRS = "EPSG:3857"
            options.jobs = jobs
            return try Converter().convert(.memory(Array(text.utf8), name: "in.kml"), to: .memory, options: options)
        }
        let one = try convert(jobs: 1)
        #expect(one.statistics.featuresWritten == 3_209)
        #expect(String(decoding: one.output.prefix(40), as: UTF8.self).hasPrefix("SRID=3857;"))
        for jobs in [2, 4] {
            let many = try convert(jobs: jobs)
            #expect(many.output == one.output, "--jobs \(jobs)")
            #expect(many.statistics.featuresRead == one.statistics.featuresRead)
            #expect(Array(many.diagnostics.entries.keys) == Array(one.diagnostics.entries.keys))
            for (code, entry) in one.diagnostics.entries {
                #expect(many.diagnostics.entries[code]?.count == entry.count, "\(code)")
                #expect(many.diagnostics.entries[code]?.first.location == entry.first.location, "\(code)")
            }
        }
    }

    @Test(
        "A loop of StyleMaps named inside a run, an emptied Style and an unused schema field: one thread's messages with --jobs"
    )
    func documentEndReports() throws {
        var lines = [
            #"<kml xmlns="http://www.opengis.net/kml/2.2"><Document>"#,
            ##"<StyleMap id="a"><Pair><key>normal</key><styleUrl>#b</styleUrl></Pair></StyleMap>"##,
            ##"<StyleMap id="b"><Pair><key>normal</key><styleUrl>#a</styleUrl></Pair></StyleMap>"##,
            #"<Style id="empty"><ListStyle><listItemType>check</listItemType></ListStyle></Style>"#,
            #"<Schema id="s"><SimpleField name="f" type="int"/><SimpleField name="g" type="int"/></Schema>"#,
        ]
        for i in 0..<20_000 {
            let style = i == 12_000 ? "<styleUrl>#a</styleUrl>" : (i == 15_000 ? "<styleUrl>#empty</styleUrl>" : "")
            lines.append(
                ##"<Placemark><name>p\##(i)</name>\##(style)<ExtendedData><SchemaData schemaUrl="#s"><SimpleData name="f">\##(i)</SimpleData></SchemaData></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>"##
            )
        }
        lines.append("</Document></kml>")
        let text = lines.joined(separator: "\n")
        let one = try convert(text, jobs: 1)
        let two = try convert(text, jobs: 2)
        #expect(two.output == one.output)
        for code in ["kml.style-loop", "kml.style-reference-dropped", "kml.unused-schema-field"] {
            #expect(one.diagnostics.entries[code] != nil, "\(code)")
            #expect(two.diagnostics.entries[code]?.count == one.diagnostics.entries[code]?.count, "\(code)")
            #expect(
                two.diagnostics.entries[code]?.first.location == one.diagnostics.entries[code]?.first.location,
                "\(code)")
        }
        #expect(
            one.diagnostics.entries["kml.style-loop"]?.count == 2
                && one.diagnostics.entries["kml.style-loop"]?.first.location?.line == 2)
        #expect(one.diagnostics.entries["kml.unused-schema-field"]?.first.message.contains(#""g""#) == true)
    }

    @Test(
        "Handed out in cuts (the conversion's workers parse and write them): every run with the tables at its marker, the rest in order"
    )
    func cuts() throws {
        let text = Self.document()
        func reader() throws -> KMLReader {
            try KMLReader(
                try ByteReader(.memory(Array(text.utf8), name: "in.kml")),
                options: KMLReadOptions(cutsRuns: true),
                diagnostics: DiagnosticLog())
        }
        var sequential = try KMLReader(
            try ByteReader(.memory(Array(text.utf8), name: "in.kml")), diagnostics: DiagnosticLog())
        _ = try sequential.readHeader()
        var expected: [Feature] = []
        while let feature = try sequential.next() { expected.append(feature) }

        var cutting = try reader()
        #expect(!cutting.cutsFeatureRuns)
        #expect(try cutting.readHeader().name == "runs")
        #expect(cutting.cutsFeatureRuns)
        let sample = try #require(try cutting.sampleFeatureRun(size: 1 << 18))
        #expect(sample.features >= KMLSplitter.minimumPlacemarks)
        #expect(sample.bytes < FeatureRun.largestParallelFeature * sample.features)
        var features: [Feature] = []
        var runs = 0
        var readHere = 0
        let log = DiagnosticLog()
        while let run = try cutting.nextFeatureRun(size: 1 << 18) {
            var pieces = try run.reader(named: "in.kml", diagnostics: log)
            let cut = try #require(pieces as? KMLCutReader).cut
            for piece in cut.pieces {
                if case .run = piece { runs += 1 }
                if case .features(let read) = piece { readHere += read.count }
            }
            _ = try pieces.readHeader()
            while let feature = try pieces.next() { features.append(feature) }
        }
        #expect(try cutting.next() == nil)
        #expect(runs >= 3)
        #expect(readHere >= 11)  // the header's first Placemark's run, "pair", "few" and the empty Placemark
        #expect(features == expected)
        #expect(log.entries["kml.style-unresolved"]?.count == 5)
        #expect(log.entries["kml.empty-folder-dropped"] == nil)
    }

    @Test("An XML error after runs, and a --strict warning of the document's own reader, are one thread's")
    func errorsAfterRuns() throws {
        let broken = Self.document().replacingOccurrences(
            of: "</Folder></Folder></Document>", with: "</Folder></Foldr></Document>")
        let one = #expect(throws: GeoConvError.self) { _ = try convert(broken, jobs: 1) }
        let two = #expect(throws: GeoConvError.self) { _ = try convert(broken, jobs: 2) }
        #expect(one?.code == .invalidInput)
        #expect(two?.code == one?.code)
        #expect(two?.message == one?.message)
        #expect(one?.location?.line == broken.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        #expect(two?.location == one?.location)

        // Inside a run: libxml2 names the line of the unclosed start tag, the input's.
        let inRun = Self.document().replacingOccurrences(of: "<name>place 1500</name>", with: "<name>place 1500</nam>")
        let lineOfTag = inRun.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            $0.contains("</nam>")
        }.map { $0 + 1 }
        let oneInRun = #expect(throws: GeoConvError.self) { _ = try convert(inRun, jobs: 1) }
        let twoInRun = #expect(throws: GeoConvError.self) { _ = try convert(inRun, jobs: 2) }
        #expect(oneInRun?.message == "Opening and ending tag mismatch: name line \(lineOfTag ?? 0) and nam")
        #expect(twoInRun?.message == oneInRun?.message)
        #expect(oneInRun?.location?.line == lineOfTag)
        #expect(twoInRun?.location == oneInRun?.location)

        // Under --strict the first loss ends the conversion: the first Placemark with s2 unknown,
        // inside a run; with s2 defined before it, the PhotoOverlay the document's reader drops.
        let defined = Self.document().replacingOccurrences(
            of: "<Folder><name>first</name>",
            with: #"<Style id="s2"/><Style id="s3"/><Folder><name>first</name>"#)
        let strictOne = #expect(throws: GeoConvError.self) { _ = try convert(defined, jobs: 1, strict: true) }
        let strictTwo = #expect(throws: GeoConvError.self) { _ = try convert(defined, jobs: 2, strict: true) }
        #expect(strictOne?.code == .dataLoss)
        #expect(strictOne?.message.contains("kml.photooverlay-dropped") == true)
        #expect(strictTwo?.message == strictOne?.message)
        #expect(strictTwo?.location == strictOne?.location)
    }

    @Test(
        "A warning in a run is one thread's, at its line and column; under --strict the same error, after the features before it"
    )
    func warningAndErrorInRun() throws {
        let text = Self.document(badCoordinatesAt: 1_234)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(">1,x<") }.map
        { $0 + 1 }
        let one = try convert(text, jobs: 1)
        let two = try convert(text, jobs: 2)
        let warning = one.diagnostics.entries["kml.invalid-coordinates"]
        #expect(warning?.count == 1)
        // At the dropped Point's start: the line of its coordinates, or the one before when the Placemark is indented over lines.
        #expect(line.map { ($0 - 1...$0).contains(warning?.first.location?.line ?? 0) } == true)
        #expect(two.diagnostics.entries["kml.invalid-coordinates"]?.first.location == warning?.first.location)
        #expect(two.output == one.output)

        let strictOne = #expect(throws: GeoConvError.self) { _ = try convert(text, jobs: 1, strict: true) }
        let strictTwo = #expect(throws: GeoConvError.self) { _ = try convert(text, jobs: 2, strict: true) }
        #expect(strictOne?.message.contains("coordinates") == true)
        #expect(strictTwo?.code == strictOne?.code)
        #expect(strictTwo?.message == strictOne?.message)
        #expect(strictOne?.location?.line == warning?.first.location?.line)
        #expect(strictTwo?.location?.line == strictOne?.location?.line)
        #expect(strictTwo?.location?.column == strictOne?.location?.column)
    }

    /// The main parser's document: what the splitter hands it, all of it.
    func mainDocument(_ text: String) throws -> (bytes: [UInt8], runs: Int, marker: String) {
        let splitter = KMLSplitter(try ByteReader(.memory(Array(text.utf8), name: "in.kml")))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4000)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try splitter.read(into: $0) }
            if n == 0 { break }
            out += buffer[..<n]
        }
        var runs = 0
        while splitter.takeRun(runs) != nil { runs += 1 }
        return (out, runs, splitter.markerName)
    }

    @Test(
        "Runs are cut where Placemarks follow one another, and what stands for them keeps every byte, line and column")
    func splitting() throws {
        let text = Self.document()
        let (main, runs, marker) = try mainDocument(text)
        #expect(runs >= 3)
        let input = Array(text.utf8)
        // As many line breaks, each line after a run as long as it was, the length the same modulo 512.
        #expect(main.count % 512 == input.count % 512 && main.count < input.count)
        let mainLines = main.split(separator: 0x0A, omittingEmptySubsequences: false)
        let inputLines = input.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(mainLines.count == inputLines.count)
        // Every line the main parser reads something on is the input's, byte for byte (a run's lines are blank).
        let read = zip(mainLines, inputLines).filter { main, _ in main.contains { $0 != 0x20 } }
        let markers = read.filter { main, _ in String(decoding: main, as: UTF8.self).contains("<" + marker) }
        #expect(markers.count == runs)
        #expect(read.filter { main, input in !main.elementsEqual(input) }.count == runs)
        // what is not a run passes through
        #expect(String(decoding: main, as: UTF8.self).contains("<Style id=\"s2\">"))
        // A namespace declared below the root stops the cutting from there on.
        let declared = text.replacingOccurrences(
            of: "<Folder><name>first</name>", with: #"<Folder xmlns:x="urn:x"><name>first</name>"#)
        #expect(try mainDocument(declared).runs == 0)
        #expect(try mainDocument(declared).bytes == Array(declared.utf8))
    }
}
