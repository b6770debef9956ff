import Foundation
import GeoConvCore
import GeoConvFlatGeobuf
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

/// FlatGeobuf read through its own reader: our fixtures (`testdata/flatgeobuf/`, written by
/// GDAL from the GeoJSON in `source/`: scripts/make-flatgeobuf-fixtures.sh), the files of
/// flatgeobuf's own test suite in `../shared/realworld/fgb/` (held to what `ogrinfo` reads from
/// them), and damaged copies made here.
@Suite("FlatGeobuf reading")
struct FlatGeobufTests {
    static func path(_ name: String) -> String {
        Fixtures.shared.appendingPathComponent("realworld/fgb/flatgeobuf/\(name)").path
    }

    static func read(_ name: String) throws -> (header: DocumentHeader, features: [Feature], log: DiagnosticLog) {
        let read = try FormatIO.read(try ByteReader(.file(path(name))), as: .flatGeobuf)
        return (read.header, read.features, read.diagnostics)
    }

    static func fixture(_ name: String) throws -> (header: DocumentHeader, features: [Feature], log: DiagnosticLog) {
        let read = try FormatIO.read(try ByteReader(.file(Fixtures.testdata("flatgeobuf/\(name)"))), as: .flatGeobuf)
        return (read.header, read.features, read.diagnostics)
    }

    static func c(_ lon: Double, _ lat: Double, _ z: Double? = nil) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon, altitude: z)
    }

    @Test("Our fixture through GDAL's writer: rings and holes in place, typed values key by key, nulls, a title")
    func places() throws {
        // (GDAL leaves out the source's third feature, which has no geometry, and orders the
        // rest along its Hilbert index.)
        let (header, features, log) = try Self.fixture("places.fgb")
        #expect(header.name == "places" && header.crs == nil && log.isEmpty)
        let byName = Dictionary(uniqueKeysWithValues: features.map { ($0.title ?? "", $0) })
        let lot = try #require(byName["Lot with a pond"])
        let outer: Path = [Self.c(0, 0), Self.c(10, 0), Self.c(10, 10), Self.c(0, 10), Self.c(0, 0)]
        let hole: Path = [Self.c(4, 4), Self.c(4, 6), Self.c(6, 6), Self.c(6, 4), Self.c(4, 4)]
        #expect(lot.geometry == .polygon(PolygonRings(outer: outer, holes: [hole])))
        #expect(Array(lot.properties.keys) == ["name", "area", "lots", "open", "note"])
        #expect(lot.properties["area"] == .number(JSONNumber(literal: "1250.75")!) && lot.properties["lots"] == 3)
        #expect(lot.properties["open"] == true && lot.properties["note"] == "Zürich – café")
        let islands = try #require(byName["Two islands"])
        guard case .multiPolygon(let polygons)? = islands.geometry else {
            Issue.record("not a MultiPolygon: \(String(describing: islands.geometry))")
            return
        }
        #expect(polygons.map(\.holes.count) == [1, 0])
        #expect(polygons[0].holes[0].coordinates.first == Self.c(22, 2))
        #expect(polygons[1].outer.coordinates == [Self.c(40, 0), Self.c(45, 0), Self.c(45, 5), Self.c(40, 0)])
        #expect(islands.properties["note"] == .null && islands.properties["open"] == false)
    }

    @Test("A header of type Unknown with Z: each feature its own kind, every position its altitude")
    func trail() throws {
        let (_, features, _) = try Self.fixture("trail.fgb")
        #expect(
            features.map(\.geometry) == [
                .lineString([Self.c(7.1, 46.2, 410.5), Self.c(7.2, 46.3, 420.25), Self.c(7.3, 46.35, 433)]),
                .multiLineString([
                    [Self.c(7, 46, 400), Self.c(7.05, 46.05, 401)], [Self.c(7.5, 46.5, 500), Self.c(7.6, 46.6, 510)],
                ]),
            ])
        #expect(features.map { $0.properties["ref"] } == ["B22", "A1"])
        #expect(features.map { $0.properties["lanes"] } == [2, 4])
    }

    @Test("Every column type: each value at its own key, typed as GDAL reads it")
    func allDataTypes() throws {
        let (header, features, _) = try Self.read("alldatatypes.fgb")
        #expect(header.name == "test" && features.count == 1)
        let values = features[0].properties
        #expect(
            Array(values.keys) == [
                "byte", "ubyte", "bool", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
                "string", "json", "datetime", "binary",
            ])
        #expect(values["byte"] == -1 && values["ubyte"] == 255 && values["bool"] == true && values["short"] == -1)
        #expect(values["ushort"] == 65535 && values["int"] == -1 && values["uint"] == 4_294_967_295)
        #expect(values["long"] == -1 && values["ulong"] == .number(JSONNumber(UInt64.max)))
        #expect(values["float"] == 0 || values["float"] == .number(JSONNumber(literal: "0.0")!))
        #expect(values["string"] == "X" && values["json"] == "X")  // ("X" is not JSON: kept as text)
        #expect(values["binary"] == "58")
        #expect(values["datetime"]?.stringValue?.hasPrefix("2020-02-29") == true)
    }

    @Test("Countries: 179 multipolygons in WGS84, a name each, rings cut where the parts end")
    func countries() throws {
        let (header, features, log) = try Self.read("countries.fgb")
        #expect(header.crs == nil && header.name == "countries")
        #expect(features.count == 179)
        #expect(log.isEmpty)
        let kinds = Set(features.compactMap(\.geometry?.kind))
        #expect(kinds == [.multiPolygon])
        for (index, feature) in features.enumerated() {
            guard case .multiPolygon(let polygons)? = feature.geometry else { continue }
            for polygon in polygons {
                for ring in [polygon.outer] + polygon.holes {
                    #expect(ring.count >= 4 && ring.first == ring.last, "feature \(index): a ring is not closed")
                }
            }
        }
        #expect(features.allSatisfy { $0.title != nil || $0.properties["name"] != nil })
    }

    @Test("A header of geometry type Unknown: each feature says its own")
    func heterogeneous() throws {
        let (_, features, _) = try Self.read("heterogeneous.fgb")
        let kinds = features.compactMap(\.geometry?.kind)
        #expect(kinds.count == features.count && Set(kinds).count > 1, "\(kinds)")
    }

    @Test("An unknown feature count (a streamed file, no index) and an empty file read to their end")
    func counts() throws {
        let (_, streamed, _) = try Self.read("unknown_feature_count.fgb")
        #expect(!streamed.isEmpty)
        let (_, empty, _) = try Self.read("empty.fgb")
        #expect(empty.isEmpty)
    }

    @Test("A truncated file: an error at the byte where it ends, saying it is truncated")
    func truncated() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path("countries.fgb"))))
        let cut = Array(bytes.prefix(bytes.count - 100))
        let error = #expect(throws: GeoConvError.self) {
            _ = try FormatIO.read(bytes: cut, as: .flatGeobuf, name: "cut.fgb")
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("truncated") == true)
        #expect(error?.location?.byteOffset == cut.count)
    }

    @Test("Runs for --jobs: whole features, each run read alone as the file reads them, placed in the file")
    func runs() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path("countries.fgb"))))
        var whole = FlatGeobufReader(try ByteReader(.memory(bytes, name: "c.fgb")), diagnostics: DiagnosticLog())
        _ = try whole.readHeader()
        var expected: [Feature] = []
        var expectedPlaces: [GeoConvCore.SourceLocation?] = []
        while let feature = try whole.next() {
            expected.append(feature)
            expectedPlaces.append(whole.lastLocation)
        }
        var cutter = FlatGeobufReader(try ByteReader(.memory(bytes, name: "c.fgb")), diagnostics: DiagnosticLog())
        #expect(!cutter.cutsFeatureRuns)  // (not before the header)
        _ = try cutter.readHeader()
        #expect(cutter.cutsFeatureRuns)
        let sample = try #require(try cutter.sampleFeatureRun(size: 8192))
        var features: [Feature] = []
        var places: [GeoConvCore.SourceLocation?] = []
        var runCounts: [Int] = []
        var firstRunBytes = 0
        while let run = try cutter.nextFeatureRun(size: 8192) {
            if runCounts.isEmpty { firstRunBytes = run.bytes.count }
            var reader = try run.makeReader(try ByteReader(.memory(run.bytes, name: "c.fgb")), DiagnosticLog())
            #expect(try reader.readHeader() == DocumentHeader())
            var count = 0
            while let feature = try reader.next() {
                features.append(feature)
                places.append(reader.lastLocation.map(run.relocate))
                count += 1
            }
            runCounts.append(count)
        }
        #expect(try cutter.next() == nil)
        #expect(runCounts.count > 10 && runCounts.allSatisfy { $0 > 0 })
        #expect(sample.bytes == firstRunBytes && sample.features == runCounts.first)
        #expect(features == expected && features.count == 179)
        #expect(places == expectedPlaces)
        // A truncated file: the cut stops where the file ends, as reading does.
        var cutShort = FlatGeobufReader(
            try ByteReader(.memory(Array(bytes.prefix(bytes.count - 100)), name: "cut.fgb")),
            diagnostics: DiagnosticLog())
        _ = try cutShort.readHeader()
        let error = #expect(throws: GeoConvError.self) {
            while try cutShort.nextFeatureRun(size: 8192) != nil {}
        }
        #expect(error?.message.contains("truncated") == true && error?.location?.byteOffset == bytes.count - 100)
    }

    @Test("A FlatBuffer whose offsets point outside it: an error at its byte, nothing read out of bounds")
    func offsetsOutOfRange() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path("triangle.fgb"))))
        // The header's root offset (after the magic bytes and the header's size) made huge.
        bytes.replaceSubrange(12..<16, with: [0xF0, 0xFF, 0xFF, 0x7F])
        let error = #expect(throws: GeoConvError.self) {
            _ = try FormatIO.read(bytes: bytes, as: .flatGeobuf, name: "damaged.fgb")
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("points outside its FlatBuffer") == true)
        #expect(error?.location?.byteOffset.map { $0 >= 12 } == true)
    }

    @Test("--bbox through the index: the features whose boxes meet it; a damaged node cannot make it loop")
    func indexSearch() throws {
        var options = ConversionOptions()
        options.selection.boundingBox = FeatureSelection.Box(west: 5, south: 45, east: 15, north: 55)
        let path = Self.path("countries.fgb")
        let found = try FormatIO.read(try ByteReader(.file(path)), as: .flatGeobuf, options: options)
        #expect(found.features.count > 5 && found.features.count < 30)
        #expect(found.diagnostics.entries["flatgeobuf.index-used"]?.first.isNote == true)
        #expect(found.features.contains { $0.title == "Germany" } && !found.features.contains { $0.title == "Chile" })
        // The root's first child made to point at the root itself.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let indexStart = 12 + Int(bytes[8]) + Int(bytes[9]) << 8 + Int(bytes[10]) << 16 + Int(bytes[11]) << 24
        bytes.replaceSubrange((indexStart + 32)..<(indexStart + 40), with: [UInt8](repeating: 0, count: 8))
        options.selection.boundingBox = FeatureSelection.Box(west: -180, south: -90, east: 180, north: 90)
        let damaged = try FormatIO.read(bytes: bytes, as: .flatGeobuf, name: "damaged.fgb", options: options)
        #expect(damaged.features.count < 179)
    }

    @Test("Not FlatGeobuf: refused at byte 0, and not taken for FlatGeobuf by content")
    func notFlatGeobuf() throws {
        #expect(FileFormat.flatGeobuf.sniff(Array("fgb\u{3}fgb\u{0}".utf8)))
        #expect(!FileFormat.flatGeobuf.sniff(Array("{\"type\":".utf8)))
        let error = #expect(throws: GeoConvError.self) {
            _ = try FormatIO.read(bytes: Array("PAR1 and more bytes".utf8), as: .flatGeobuf, name: "x.fgb")
        }
        #expect(error?.location?.byteOffset == 0)
    }
}
