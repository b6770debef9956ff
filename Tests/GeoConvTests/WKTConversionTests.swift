import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// WKT and WKB through the converter: to the other formats, reprojection, the registry
@Suite("WKT and WKB through the converter: to the other formats, reprojection, the registry")
struct WKTConversionTests {
    func convert(_ wkt: String, to format: FileFormat) throws(GeoConvError) -> ConversionReport {
        try Converter().convert(
            .memory(Array(wkt.utf8), name: "e.wkt"), to: .memory, options: ConversionOptions(outputFormat: format))
    }

    @Test("Errors say what was expected, with line and column in files")
    func errors() throws {
        do {
            _ = try Converter().convert(
                .memory(Array("POINT (1 2)\nLINESTRING (1 2, 3)\n".utf8), name: "shapes.wkt"), to: .memory,
                options: ConversionOptions(inputFormat: .wkt, outputFormat: .wkt))
            Issue.record("accepted a bad line")
        } catch {
            #expect(
                error.location?.file == "shapes.wkt" && error.location?.line == 2 && error.location?.column == 19,
                "\(error)")
            #expect(error.message.contains("needs X and Y"))
        }
        #expect {
            try WKTParser.parse("TIN (((0 0 0, 0 0 1, 0 1 0, 0 0 0)))")
        } throws: { error in
            (error as? GeoConvError)?.code == .unsupported && (error as? GeoConvError)?.location?.byteOffset == 0
        }
        let truncated: [UInt8] = [1, 1, 0, 0, 0, 0, 0]
        #expect(throws: GeoConvError.self) { try truncated.withUnsafeBytes { try WKB.read($0) } }
        let lying: [UInt8] = [1, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: GeoConvError.self) { try lying.withUnsafeBytes { try WKB.read($0) } }
    }

    @Test("Empty lines and polygons inside multi-geometries are read and kept by WKT and WKB")
    func keptByWKTAndWKB() throws {
        let lines =
            "MULTILINESTRING ((0 0,1 1),EMPTY)\nMULTIPOLYGON (EMPTY,((0 0,1 0,1 1,0 0)))\nGEOMETRYCOLLECTION (POINT EMPTY,POINT (1 2))\n"
        let wkt = try convert(lines, to: .wkt)
        #expect(String(decoding: wkt.output, as: UTF8.self) == lines)
        #expect(wkt.diagnostics.entries.isEmpty)
        let hex = try convert(lines, to: .wkbHex)
        let back = try Converter().convert(
            .memory(hex.output, name: "e.wkbhex"), to: .memory, options: ConversionOptions(outputFormat: .wkt))
        #expect(String(decoding: back.output, as: UTF8.self) == lines)
    }

    @Test(
        "Formats that cannot hold them drop them with a note; an EMPTY point in a MULTIPOINT is dropped with a warning")
    func droppedElsewhere() throws {
        let report = try convert("MULTILINESTRING ((0 0,1 1),EMPTY)\n", to: .geoJSONSequence)
        #expect(
            String(decoding: report.output, as: UTF8.self).contains(
                #""type":"MultiLineString","coordinates":[[[0,0],[1,1]]]"#))
        let note = report.diagnostics.entries["geometry.empty-member-dropped"]?.first
        #expect(note?.isNote == true)
        // The formats named are the registry's, asked for their capability.
        #expect(
            note?.message.hasSuffix("(formats that hold them: wkt, wkbhex, wkb)") == true, "\(String(describing: note))"
        )
        let circle =
            #"{"type":"Feature","properties":{"geoconv:radius":100},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let refused = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(
                .memory(Array(circle.utf8), name: "c.geojson"), to: .memory,
                options: ConversionOptions(outputFormat: .wkt, strict: true))
        }
        #expect(refused?.code == .dataLoss && refused?.message.hasSuffix("[circle.approximated]") == true)
        #expect(refused?.hint == "to keep circles exactly, write one of: geojson, geojsonseq, kml, kmz")
        // In WKB, an empty point is a point of NaNs; inside a MultiPoint it is dropped likewise.
        let hex = try convert("MULTIPOINT ((10 0),EMPTY)\n", to: .wkbHex)
        #expect(hex.diagnostics.entries["wkt.empty-point-dropped"] != nil)
        let nanPoint =
            "0104000000020000000101000000000000000000244000000000000000000101000000000000000000F87F000000000000F87F\n"
        let fromWKB = try Converter().convert(
            .memory(Array(nanPoint.utf8), name: "e.wkbhex"), to: .memory,
            options: ConversionOptions(inputFormat: .wkbHex, outputFormat: .wkt))
        #expect(String(decoding: fromWKB.output, as: UTF8.self) == "MULTIPOINT ((10 0))\n")
        #expect(fromWKB.diagnostics.entries["wkt.empty-point-dropped"]?.first.location?.line == 1)
        let points = try convert("MULTIPOINT ((10 0),EMPTY)\n", to: .wkt)
        #expect(String(decoding: points.output, as: UTF8.self) == "MULTIPOINT ((10 0))\n")
        let warning = try #require(points.diagnostics.entries["wkt.empty-point-dropped"])
        #expect(warning.first.location?.line == 1 && warning.first.location?.column == 1)
    }

    @Test("ISO WKB curves (8 to 12) read as their WKT twins")
    func wkbCurves() throws {
        func double(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init) }
        func uint(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let arc: [UInt8] = [1] + uint(8) + uint(3) + [0.0, 0, 1, 1, 2, 0].flatMap(double)
        let line: [UInt8] = [1] + uint(2) + uint(2) + [2.0, 0, 3, 0].flatMap(double)
        let compound: [UInt8] = [1] + uint(9) + uint(2) + arc + line
        let multiCurve: [UInt8] = [1] + uint(11) + uint(2) + line + arc
        for (bytes, text) in [
            (arc, "CIRCULARSTRING (0 0, 1 1, 2 0)"),
            (compound, "COMPOUNDCURVE (CIRCULARSTRING (0 0, 1 1, 2 0), (2 0, 3 0))"),
            (multiCurve, "MULTICURVE ((2 0, 3 0), CIRCULARSTRING (0 0, 1 1, 2 0))"),
        ] {
            let read = try bytes.withUnsafeBytes { try WKB.read($0) }
            #expect(read.0.geometry == (try WKTParser.parse(text).geometry) && read.linearisedCurves > 0, "\(text)")
        }
        let hex = compound.map { String(format: "%02X", $0) }.joined() + "\n"
        let report = try Converter().convert(
            .memory(Array(hex.utf8), name: "c.wkbhex"), to: .memory,
            options: ConversionOptions(inputFormat: .wkbHex, outputFormat: .wkt))
        #expect(report.diagnostics.entries["wkt.curve-linearised"] != nil)
        #expect(String(decoding: report.output, as: UTF8.self).hasSuffix(",3 0)\n"))
    }
}
