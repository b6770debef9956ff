import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// CSV through the converter: encodings and --jobs, the registry's sniffing, GDAL reading the output
@Suite("CSV through the converter: encodings and --jobs, the registry's sniffing, GDAL reading the output")
struct CSVConversionTests {
    /// A multi-byte character cut by a read chunk's end is kept whole; an unknown name is refused.
    @Test("--csv-encoding decodes a legacy file first: CP1252 and Latin-1 text, bytes of no character reported")
    func legacyEncodings() throws {
        func convert(
            _ bytes: [UInt8], encoding: String,
            jobs: Int = 1
        ) throws -> (features: [Feature], report: ConversionReport) {
            var options = ConversionOptions(inputFormat: .csv, outputFormat: .geoJSON)
            options.formatOptions[CSVOptions.encoding] = encoding
            options.jobs = jobs
            let report = try Converter().convert(.memory(bytes, name: "legacy.csv"), to: .memory, options: options)
            let back = try OverlayDocument.load(.memory(report.output, name: "out.geojson")).features
            return (back, report)
        }
        // "Café Müller €" in Windows-1252 (0x80 is the euro sign); 0x81 is no character of it.
        let cp1252: [UInt8] =
            Array("name,lat,lon\nCaf".utf8) + [0xE9] + Array(" M".utf8) + [0xFC]
            + Array("ller ".utf8) + [0x80]
            + Array(",48.1,11.5\nK".utf8) + [0x81] + Array("se,48.2,11.6\n".utf8)
        let (features, report) = try convert(cp1252, encoding: "CP1252")
        #expect(features.map { $0.properties["name"] } == ["Café Müller €", "K\u{FFFD}se"])
        #expect(features.first?.geometry == .point(Coordinate(latitude: 48.1, longitude: 11.5)))
        #expect(report.diagnostics.entries["csv.invalid-encoding"]?.first.message.hasPrefix("1 byte(s)") == true)
        #expect(report.diagnostics.entries["csv.invalid-utf8"] == nil)
        // The same bytes as Latin-1 (every byte a character), and under the names people write.
        for name in ["latin1", "ISO-8859-1", "88591"] {
            let latin = try convert(cp1252, encoding: name)
            #expect(latin.features.first?.properties["name"] == "Café Müller \u{80}", "\(name)")
            #expect(latin.report.diagnostics.entries["csv.invalid-encoding"] == nil, "\(name)")
        }
        // Shift_JIS: the 1 MiB chunks the copy is made in end inside a two-byte character (the
        // header's 21 bytes put the cut at byte 1 of a row: in 東).
        let header = "name_in_sjis,lat,lon\n"
        let row = "東京,35.68,139.76\n"
        let rowBytes = try #require(row.data(using: .shiftJIS)).count
        #expect(((1 << 20) - header.utf8.count) % rowBytes == 1)
        let count = (1 << 20) / rowBytes + 100
        let sjis = try #require((header + String(repeating: row, count: count)).data(using: .shiftJIS))
        for jobs in [1, 2] {
            let (rows, sjisReport) = try convert(Array(sjis), encoding: "SHIFT_JIS", jobs: jobs)
            #expect(rows.count == count, "--jobs \(jobs)")
            #expect(rows.allSatisfy { $0.properties["name_in_sjis"] == "東京" }, "--jobs \(jobs)")
            #expect(sjisReport.diagnostics.entries["csv.invalid-encoding"] == nil)
        }
        #expect(throws: GeoConvError.self) { try convert(cp1252, encoding: "no-such-encoding") }
    }

    @Test("The registry finds CSV by .csv and .tsv, and by a header's content")
    func registryFindsCSV() {
        #expect(
            FormatRegistry.standard.format(forPath: "x.tsv") == .csv
                && FormatRegistry.standard.format(forPath: "x.csv") == .csv)
        #expect(FormatRegistry.standard.format(sniffing: Array("name,lat,lon\nA,1,2\n".utf8)) == .csv)
    }

    @Test(
        "GDAL reads what geoconv writes: the WKT column by default, longitude/latitude with X/Y_POSSIBLE_NAMES",
        .enabled(if: Tools.ogrinfo != nil))
    func gdalReadsBack() throws {
        let directory = try Fixtures.temporaryDirectory()
        for (file, options) in [
            ("shapes.csv", [String]()),
            ("points.csv", ["-oo", "X_POSSIBLE_NAMES=longitude", "-oo", "Y_POSSIBLE_NAMES=latitude"]),
        ] {
            let output = directory.appendingPathComponent("out-" + file).path
            _ = try Converter().convert(.file(Fixtures.testdata("csv/" + file)), to: .file(output))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(Tools.ogrinfo))
            process.arguments = ["-ro", "-al", "-so", output] + options
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let info = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(info.contains("Feature Count: \(file == "shapes.csv" ? 4 : 3)"), "\(info)")
            #expect(info.contains(file == "shapes.csv" ? "Geometry: Unknown (any)" : "Geometry: Point"), "\(info)")
        }
    }

    @Test(
        "--jobs cuts runs only where a record ends: quoted line breaks, doubled quotes and CRLF read as on one thread")
    func runs() throws {
        var text = "name,lon,lat,note\r\n"
        for i in 0..<400 {
            switch i % 4 {
            case 0: text += "\"Stop \(i)\",\(i % 180),\(i % 80),\"two\nlines, \"\"quoted\"\"\"\r\n"
            case 1: text += "Stop \(i),\(i % 180),\(i % 80),\"\"\"\"\n"
            case 2: text += "\"Stop\n\(i)\",\(i % 180),\(i % 80),plain\n\n"
            default: text += "Stop \(i),\(i % 180),\(i % 80),\"a\r\nb\"\n"
            }
        }
        func convert(jobs: Int) throws -> ConversionReport {
            var options = ConversionOptions(outputFormat: .geoJSON)
            options.jobs = jobs
            options.chunkBytes = 256
            return try Converter().convert(.memory(Array(text.utf8), name: "in.csv"), to: .memory, options: options)
        }
        let one = try convert(jobs: 1)
        let four = try convert(jobs: 4)
        #expect(one.statistics.featuresWritten == 400)
        #expect(one.output == four.output)
        let output = String(decoding: four.output, as: UTF8.self)
        #expect(output.contains(#""note":"two\nlines, \"quoted\"""#) && output.contains(#""name":"Stop\n2""#))
    }

    /// Found by the round-trip fuzzer: the cutter left a last record whose closing quote is the
    /// input's last byte for "more bytes to decide", and `--jobs` stopped with "a feature
    /// after the runs of features" on a file one thread reads.
    @Test("--jobs reads a last record that ends with a quoted field and no line break, as one thread does")
    func lastQuotedField() throws {
        var text = "name,lon,lat,note\n"
        for i in 0..<300 { text += "Stop \(i),\(i % 180),\(i % 80),\"n \(i)\"\n" }
        text += "last,1,2,\"end\""
        var outputs: [[UInt8]] = []
        for jobs in [1, 2] {
            var options = ConversionOptions(outputFormat: .geoJSON)
            options.jobs = jobs
            options.chunkBytes = 256
            let report = try Converter().convert(
                .memory(Array(text.utf8), name: "in.csv"), to: .memory, options: options)
            #expect(report.statistics.featuresWritten == 301, "--jobs \(jobs)")
            outputs.append(report.output)
        }
        #expect(outputs[0] == outputs[1])
        let last = try #require(try OverlayDocument.load(.memory(outputs[1], name: "out.geojson")).features.last)
        #expect(last.properties["name"] == "last" && last.properties["note"] == "end")
    }
}
