import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// A KML file's start (root, styles, schema) written early, once the first megabyte of
/// placemarks has shown it, padded with white space to 32 KB: a later feature that adds to it
/// has it written again there, or, when it outgrows the 32 KB, the file rewritten. The file
/// must be what the held-body path writes (to memory, where nothing is rewritten), with the
/// white space before the first placemark when the start fitted, whatever `--jobs`.
@Suite("KML start written early")
struct KMLEarlyStartTests {
    /// 15,000 small points (about 2 MB of KML), and from `lateFrom` on, features that add
    /// styles, a field and a wider type.
    static func input(lateFrom: Int?, lateStyles: Int = 0) -> InputSource {
        var features = (0..<15_000).map { i in
            #"{"type":"Feature","properties":{"n":\#(i)},"geometry":{"type":"Point","coordinates":[\#(Double(i % 360) - 180),\#(Double(i % 170) - 85)]}}"#
        }
        for k in 0..<lateStyles {
            // Each a style of its own (about 100 bytes in the start).
            let colour = String(0x100000 + k * 37, radix: 16)
            features[11_000 + k] =
                ##"{"type":"Feature","properties":{"n":\##(k),"marker-color":"#\##(colour)"},"##
                + ##""geometry":{"type":"Point","coordinates":[1,2]}}"##
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
        "The same file whether the start stays, changes about when it is written, just after, or near the end",
        arguments: [nil, 7_000, 7_200, 9_000, 14_990])
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
        #expect(Self.withoutRoom(bytes, room: 32 << 10) == held.output)
        // The white space ends where it began: 32 KB into the file.
        let firstPlacemark = bytes.indices.first { bytes[$0...].starts(with: Array("<Placemark".utf8)) }
        #expect(firstPlacemark == 32 << 10)
        #expect(written.diagnostics.summary == held.diagnostics.summary)
        // One thread writes the start early at another feature than two (the end of a run):
        // the same bytes.
        options.jobs = 1
        let onePath = directory.appendingPathComponent("one.kml").path
        _ = try Converter().convert(input, to: .file(onePath), options: options)
        let sameAsOneThread = try [UInt8](Data(contentsOf: URL(fileURLWithPath: onePath))) == bytes
        #expect(sameAsOneThread, "--jobs 1 and --jobs 2 write different files")
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

    @Test("A start that outgrows its room: the file rewritten, with no room left in it")
    func outgrownRoom() throws {
        // 600 late styles: about 42 KB of start, more than the 32 KB hold.
        let input = Self.input(lateFrom: 14_000, lateStyles: 600)
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml)
        options.jobs = 2
        let held = try Converter().convert(input, to: .memory, options: options)
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("out.kml").path
        _ = try Converter().convert(input, to: .file(path), options: options)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes == held.output)
        let styles = String(decoding: bytes.prefix(64 << 10), as: UTF8.self).components(separatedBy: "<Style id=")
        #expect(styles.count - 1 == 602)
    }

    @Test("The document's view is made once, before the root: its gx namespace declared, its roll reported once")
    func documentView() throws {
        // 15,000 placemarks (about 2 MB: written early), the last 300 each with a style of its own.
        var placemarks: [String] = []
        for i in 0..<15_000 {
            let style =
                i >= 14_700
                ? "<Style><IconStyle><color>ff\(String(0x10_0000 + i, radix: 16))</color></IconStyle></Style>" : ""
            placemarks.append(
                "<Placemark><name>p\(i)</name>\(style)"
                    + "<Point><coordinates>\(i % 360 - 180),0</coordinates></Point></Placemark>"
            )
        }
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <LookAt><longitude>10</longitude><latitude>20</latitude><range>1000</range><roll>5</roll>\
            <gx:altitudeMode>clampToSeaFloor</gx:altitudeMode></LookAt>
            \(placemarks.joined(separator: "\n"))
            </Document></kml>
            """
        let input = InputSource.memory(Array(kml.utf8), name: "view.kml")
        let directory = try Fixtures.temporaryDirectory()
        for (jobs, target) in [(1, "memory"), (1, "file"), (2, "file")] {
            var options = ConversionOptions(inputFormat: .kml, outputFormat: .kml)
            options.jobs = jobs
            let path = directory.appendingPathComponent("out-\(jobs).kml").path
            let report = try Converter().convert(input, to: target == "file" ? .file(path) : .memory, options: options)
            let bytes = target == "file" ? try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) : report.output
            let start = String(decoding: bytes.prefix(200), as: UTF8.self)
            #expect(start.contains(#"xmlns:gx="http://www.google.com/kml/ext/2.2""#), "\(target), --jobs \(jobs)")
            let rolls = report.diagnostics.summary.filter { $0.contains("<roll>") }
            #expect(rolls.count == 1 && !rolls[0].contains(" times)"), "\(target), --jobs \(jobs): \(rolls)")
            #expect(XMLSchemaValidation.errors(in: bytes, schema: XMLSchemaValidation.kmlSchema).isEmpty)
        }
    }

    /// `bytes` with the white space between the start and the first placemark taken out,
    /// after checking it is the room: `room` bytes or fewer (what the start's growth left),
    /// spaces in lines of at most a kilobyte, a line break last.
    static func withoutRoom(_ bytes: [UInt8], room: Int) -> [UInt8] {
        let tag = Array("<Placemark".utf8)
        guard let placemark = bytes.indices.first(where: { bytes[$0...].starts(with: tag) }) else { return bytes }
        var start = placemark
        while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\n") { start -= 1 }
        start += 1  // (the start's own line break)
        let white = bytes[start..<placemark]
        #expect(!white.isEmpty && white.count <= room, "room of \(white.count) bytes")
        #expect(white.last == UInt8(ascii: "\n"))
        let lines = white.split(separator: UInt8(ascii: "\n"))
        #expect(lines.allSatisfy { $0.count < 1024 && $0.allSatisfy { $0 == UInt8(ascii: " ") } })
        return Array(bytes[..<start] + bytes[placemark...])
    }
}
