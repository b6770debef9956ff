import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// A KML file's start (root, styles, schema) written early, once the first megabyte of
/// placemarks has shown it, with 16 KB of white space after it: a later feature that adds to
/// it has it written again in that room, or, when it outgrows the room, the file rewritten.
/// The file must be what the held-body path writes (to memory, where nothing is rewritten),
/// with the room's white space before the first placemark when the start fitted in it.
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
            features[12_000 + k] =
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
        #expect(Self.withoutRoom(bytes, room: 16 << 10) == held.output)
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

    @Test("A start that outgrows its room: the file rewritten, with no room left in it")
    func outgrownRoom() throws {
        // 400 late styles: about 28 KB of start, more than the room holds.
        let input = Self.input(lateFrom: 14_000, lateStyles: 400)
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: .kml)
        options.jobs = 2
        let held = try Converter().convert(input, to: .memory, options: options)
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("out.kml").path
        _ = try Converter().convert(input, to: .file(path), options: options)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes == held.output)
        let styles = String(decoding: bytes.prefix(64 << 10), as: UTF8.self).components(separatedBy: "<Style id=")
        #expect(styles.count - 1 == 402)
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
