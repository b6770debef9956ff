import Foundation
import GeoConv
import GeoConvTestSupport
import GeoConvXML
import Testing

@Suite("Conversion pipeline and format registry")
struct ConversionTests {
    @Test("An Esri code written as an EPSG one: the hint names it as Esri's", .enabled(if: BuiltTraits.proj))
    func esriCodeInEPSGURN() throws {
        let text =
            #"{"type":"FeatureCollection","#
            + #""crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::102645"}},"#
            + #""features":[{"type":"Feature","properties":{},"#
            + #""geometry":{"type":"Point","coordinates":[6.5e6,1.9e6]}}]}"#
        let error = #expect(throws: GeoConvError.self) {
            _ = try Converter().convert(
                .memory(Array(text.utf8), name: "esri.geojson"), to: .memory,
                options: ConversionOptions(outputFormat: .kml))
        }
        #expect(error?.hint?.contains("ESRI:102645") == true, "\(String(describing: error))")
    }

    @Test("The registry finds formats by name, extension and content")
    func registry() throws {
        let registry = FormatRegistry.standard
        #expect(registry.format(named: "POLYLINE")?.name == "polyline")
        #expect(registry.format(forPath: "dir.d/route.polyline6")?.name == "polyline")
        #expect(registry.format(forPath: "route.txt") == nil)
        #expect(registry.format(forPath: ".polyline") == nil)
        #expect(registry.format(sniffing: Array("_p~iF~ps|U\n(abc)\n".utf8))?.name == "polyline")
        #expect(registry.format(sniffing: Array(#"{"type":"Point"}"#.utf8))?.name == "geojson")
        #expect(registry.format(sniffing: Array("\u{1E}{}".utf8))?.name == "geojsonseq")
        #expect(
            registry.format(sniffing: Array("{\"type\":\"Feature\"}\n{\"type\":\"Feature\"}\n".utf8))?.name
                == "geojsonseq")
        #expect(registry.format(forPath: "a.geojsons")?.name == "geojsonseq")
        #expect(registry.format(forPath: "a.GeoJSON")?.name == "geojson")
    }

    @Test("A file converts through the pipeline; .polyline6 implies precision 6")
    func convertFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("hyde-park.polyline6").path
        let report = try Converter().convert(.file(Fixtures.testdata("polyline/hyde-park.polyline")), to: .file(output))
        #expect(report.statistics.featuresRead == 1 && report.statistics.featuresWritten == 1)
        #expect(report.inputFormat == "polyline" && report.outputFormat == "polyline")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.hasPrefix("(") && text.hasSuffix(")\n"))
        // Read back at precision 6: the same polygon.
        let six = try Converter().convert(
            .file(output), to: .memory, options: ConversionOptions(outputFormat: .encodedPolyline))
        let original = try String(contentsOfFile: Fixtures.testdata("polyline/hyde-park.polyline"), encoding: .utf8)
        #expect(String(decoding: six.output, as: UTF8.self) == original.split(separator: "\n").last.map { $0 + "\n" })
    }

    @Test("Memory input is sniffed when no format is named")
    func sniffedInput() throws {
        let report = try Converter().convert(
            .memory(Array("# routes\n_p~iF~ps|U\n".utf8), name: "<stdin>"), to: .memory,
            options: ConversionOptions(outputFormat: .encodedPolyline))
        #expect(report.inputFormat == "polyline")
        #expect(String(decoding: report.output, as: UTF8.self) == "_p~iF~ps|U\n")
    }

    @Test("A failed conversion leaves the existing output untouched and no temporary file")
    func failedConversion() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("bad.polyline").path
        let output = directory.appendingPathComponent("out.polyline").path
        try "_p~iF~ps|U\n_p~iF~ps|U!\n".write(toFile: input, atomically: false, encoding: .utf8)
        try "precious\n".write(toFile: output, atomically: false, encoding: .utf8)
        do {
            _ = try Converter().convert(.file(input), to: .file(output))
            Issue.record("converted invalid input")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.location == SourceLocation(file: input, line: 2, column: 11, byteOffset: 21))
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "bad.polyline", "out.polyline",
            ])
    }

    @Test("The input is never the output")
    func inputIsOutput() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("a.polyline").path
        try "_p~iF~ps|U\n".write(toFile: input, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("b.polyline").path,
            withDestinationPath: input)
        for output in [input, directory.appendingPathComponent("b.polyline").path] {
            #expect(
                throws: GeoConvError(
                    .usage, "the output '\(output)' is the input file",
                    hint: "write to another file; geoconv never overwrites its input")
            ) {
                _ = try Converter().convert(.file(input), to: .file(output))
            }
        }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "_p~iF~ps|U\n")
    }

    @Test("Unknown formats are usage errors that list the known ones")
    func unknownFormats() {
        do {
            _ = try Converter().convert(
                .file(Fixtures.testdata("polyline/hyde-park.polyline")), to: .file("/tmp/x.unknown"))
            Issue.record("accepted an unknown extension")
        } catch {
            #expect(error.code == .usage)
            #expect(error.hint?.contains("polyline (.polyline") == true)
        }
        // Names are parsed at the edge (the CLI's --from/--to): aliases and case are accepted.
        #expect(FormatRegistry.standard.format(named: "mapinfo") == nil)
        #expect(
            FormatRegistry.standard.format(named: "WKB-HEX") == .wkbHex
                && FormatRegistry.standard.format(named: "hexwkb") == .wkbHex)
    }

    @Test("libxml2 and (with the PROJ trait) PROJ are linked and report their versions")
    func libraries() throws {
        let xml = LibXML2.version.split(separator: ".").compactMap { Int($0) }
        #expect(xml.count == 3 && xml[0] == 2)
        if BuiltTraits.proj {
            let proj = try #require(PROJLibrary.version).split(separator: ".").compactMap { Int($0) }
            #expect(proj.count == 3 && proj[0] >= 6)
        } else {
            #expect(PROJLibrary.version == nil)
        }
    }

    @Test("Geometry text for decode --format geojson|wkt")
    func geometryText() throws {
        let line = Geometry.lineString([
            Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
        ])
        #expect(
            try GeoJSONWriter.text(for: line) == #"{"type":"LineString","coordinates":[[-120.2,38.5],[-120.95,40.7]]}"#)
        #expect(try WKTWriter().text(for: line) == "LINESTRING (-120.2 38.5,-120.95 40.7)")
        #expect(
            try WKTWriter().text(for: .point(Coordinate(latitude: 1, longitude: 2, altitude: 3))) == "POINT Z (2 1 3)")
        #expect(try WKTWriter().text(for: .empty(.point)) == "POINT EMPTY")
        #expect(
            try GeoJSONWriter.text(
                for: .point(Coordinate(latitude: 1.26, longitude: 2)), options: GeoJSONWriteOptions(precision: 1))
                == #"{"type":"Point","coordinates":[2,1.3]}"#)
        let square = Geometry.polygon(
            PolygonRings(outer: [
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                Coordinate(latitude: 1, longitude: 1),
            ]))
        #expect(try WKTWriter().text(for: square) == "POLYGON ((0 0,1 0,1 1,0 0))")
        #expect(throws: GeoConvError.self) {
            _ = try WKTWriter().text(for: .circle(center: Coordinate(latitude: 0, longitude: 0), radius: 1))
        }
    }
}
