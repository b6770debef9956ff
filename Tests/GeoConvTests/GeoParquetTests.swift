import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@Suite("GeoParquet: written and read back, and what pyarrow and geopandas write")
struct GeoParquetTests {
    static let source = Fixtures.testdata("geoparquet/source.geojson")

    /// Features converted to GeoParquet in memory, with `adjust` applied to the options.
    static func write(
        _ input: String, _ adjust: (inout ConversionOptions) -> Void = { _ in }
    ) throws -> ConversionReport {
        var options = ConversionOptions()
        options.outputFormat = .geoParquet
        adjust(&options)
        return try Converter().convert(.file(input), to: .memory, options: options)
    }

    static func read(_ bytes: [UInt8]) throws -> [Feature] {
        var options = ConversionOptions()
        options.inputFormat = .geoParquet
        return try OverlayDocument.load(.memory(bytes, name: "out.parquet"), options: options).features
    }

    /// A feature as a comparison sees it: without null properties (a column is null where a
    /// feature had nothing), without a `name` property that says the title (GeoJSON's reader
    /// keeps both; the `name` column is the title), numbers by value.
    static func withoutNulls(_ feature: Feature) -> Feature {
        var copy = feature
        copy.properties = copy.properties.filter {
            $0.value != .null && !($0.key == "name" && $0.value == feature.title.map(JSONValue.string))
        }
        for (key, value) in copy.properties {
            if case .number(let n) = value, let exact = JSONNumber(n.doubleValue) {
                copy.properties[key] = .number(exact)
            }
        }
        return copy
    }

    @Test("geoconv → GeoParquet → geoconv keeps every geometry, title and typed value", arguments: ["none", "gzip"])
    func roundTrip(codec: String) throws {
        let report = try Self.write(Self.source) { $0.formatOptions[GeoParquetOptions.compression] = codec }
        #expect(
            Array(report.output.prefix(4)) == Array("PAR1".utf8) && Array(report.output.suffix(4)) == Array("PAR1".utf8)
        )
        let before = try OverlayDocument.load(.file(Self.source)).features
        let after = try Self.read(report.output)
        #expect(after.map(Self.withoutNulls) == before.map(Self.withoutNulls))
        // rank holds an integer beyond 2^53 beside integers only: INT64, exact.
        #expect(after[4].properties["rank"] == .number(JSONNumber(9_007_199_254_740_993)))
        // price mixes integers and reals: DOUBLE (3 reads back as 3).
        #expect(after[4].properties["price"] == .number(JSONNumber(literal: "3")!))
    }

    @Test("zstd pages (the default with the Zstd trait) round-trip", .enabled(if: BuiltTraits.zstd))
    func roundTripZstd() throws {
        try roundTrip(codec: "zstd")
        let report = try Self.write(Self.source)
        #expect(try GeoParquetInspection.metadata(report.output).codecs == ["ZSTD"])
    }

    @Test("Row groups of two rows: three row groups, the same features")
    func rowGroups() throws {
        let report = try Self.write(Self.source) { $0.formatOptions[GeoParquetOptions.rowGroupRows] = 2 }
        let after = try Self.read(report.output)
        #expect(
            after.map(Self.withoutNulls)
                == (try OverlayDocument.load(.file(Self.source)).features).map(Self.withoutNulls))
        let metadata = try GeoParquetInspection.metadata(report.output)
        #expect(metadata.rowGroups == [2, 2, 2])
        #expect(metadata.geo.contains(#""covering":{"bbox":{"xmin":["bbox","xmin"]"#))
        #expect(
            metadata.geo.contains(#""geometry_types":["Point Z","LineString","Polygon","MultiPolygon","MultiPoint"]"#))
        #expect(metadata.geo.contains(#""bbox":[-179.5,-89.5,179.5,89.5]"#))
    }

    @Test("Columns take the widest type their values need; what becomes text is reported")
    func widening() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoparquet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("mixed.geojsonl")
        try Data(
            """
            {"type":"Feature","properties":{"a":1,"b":1,"c":true,"d":[1,2],"e":null,"f":9007199254740993,"g":18446744073709551615,"h":18446744073709551616,"u":18446744073709551615},"geometry":{"type":"Point","coordinates":[1,2]}}
            {"type":"Feature","properties":{"a":2,"b":1.5,"c":"yes","d":{"k":"v"},"f":0.5,"g":"x","h":1,"u":1},"geometry":{"type":"Point","coordinates":[3,4]}}

            """.utf8
        ).write(to: input)
        let report = try Self.write(input.path)
        let columns = try GeoParquetInspection.metadata(report.output).columns
        #expect(
            columns["a"] == "INT64" && columns["b"] == "DOUBLE" && columns["c"] == "UTF8" && columns["d"] == "UTF8"
                && columns["e"] == "UTF8"
                && columns["f"] == "DOUBLE" && columns["g"] == "UTF8" && columns["h"] == "DOUBLE"
                && columns["u"] == "INT64")
        let back = try Self.read(report.output)
        #expect(back[0].properties["c"] == .string("true") && back[1].properties["c"] == .string("yes"))
        #expect(back[0].properties["d"] == .string("[1,2]") && back[1].properties["d"] == .string(#"{"k":"v"}"#))
        #expect(
            back[1].properties["b"] == .number(JSONNumber(literal: "1.5")!)
                && back[0].properties["b"] == .number(JSONNumber(literal: "1")!))
        // An integer beyond 64 bits keeps its digits in a text column; in a DOUBLE one it is rounded, reported.
        #expect(
            back[0].properties["g"] == .string("18446744073709551615")
                && back[0].properties["h"] == .number(JSONNumber(literal: "18446744073709552000")!))
        #expect(
            back[0].properties["u"] == .number(JSONNumber(UInt64.max))
                && back[1].properties["u"] == .number(JSONNumber(1)))  // INT64, unsigned
        #expect(report.diagnostics.entries["geoparquet.mixed-types-as-text"]?.count == 2)
        #expect(report.diagnostics.entries["geoparquet.nested-value-as-json"]?.count == 2)
        #expect(report.diagnostics.entries["geoparquet.integer-as-double"]?.count == 2)
    }

    @Test(
        "What geopandas and pyarrow write reads as the source: snappy, zstd with a bbox covering, page v2 gzip",
        arguments: ["geopandas-snappy", "pyarrow-v2-gzip-plain"])
    func othersFiles(name: String) throws {
        let read = try OverlayDocument.load(.file(Fixtures.testdata("geoparquet/\(name).parquet"))).features
        let source = try OverlayDocument.load(.file(Self.source)).features
        #expect(read.map(\.geometry) == source.map(\.geometry))
        #expect(read.map(\.title) == source.map(\.title))
        #expect(
            read.map { Self.withoutNulls($0).properties.filter { $0.key != "open" } }
                == source.map { Self.withoutNulls($0).properties.filter { $0.key != "open" } })
        // GDAL (pyogrio) reads the booleans as integers before geopandas writes them.
        #expect(
            read.map { $0.properties["open"] }
                == [1, 0, 1, 0, nil, 1].map { $0.map { JSONValue.number(JSONNumber($0)) } ?? .null })
    }

    @Test(
        "Parquet's own GEOMETRY type (DuckDB): its CRS is the document's, so UTM metres are reprojected, the hole kept",
        .enabled(if: BuiltTraits.proj))
    func nativeGeometryType() throws {
        let path = Fixtures.testdata("geoparquet/duckdb-native-utm.parquet")
        let document = try OverlayDocument.load(.file(path))
        #expect(document.header.crs == "EPSG:32633")
        let report = try Converter().convert(
            .file(path), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
        let features = try FormatIO.read(bytes: report.output, as: .geoJSON).features
        guard case .polygon(let rings)? = features.first?.geometry else {
            Issue.record("not a polygon: \(String(describing: features.first?.geometry))")
            return
        }
        // cs2cs EPSG:32633 OGC:CRS84: 502000 4002000 → 15.0222365334949 36.1627474590235.
        #expect(
            rings.holes.count == 1
                && rings.holes[0].coordinates.contains { c in
                    abs(c.longitude - 15.0222365334949) < 1e-9 && abs(c.latitude - 36.1627474590235) < 1e-9
                }, "\(rings)")
        #expect(features.first?.properties == ["id": 1, "NAME": "Lake"])
        #expect(report.diagnostics.entries["geoparquet.no-geo-metadata"] == nil)
        let plain = try OverlayDocument.load(.file(Fixtures.testdata("geoparquet/duckdb-native-crs84.parquet")))
        #expect(
            plain.header.crs == nil
                && plain.features.first?.geometry == .point(Coordinate(latitude: 59.9, longitude: 10.5)))
    }

    @Test("geopandas' zstd file with its bbox covering column", .enabled(if: BuiltTraits.zstd))
    func othersZstd() throws {
        try othersFiles(name: "geopandas-zstd-bbox")
    }

    @Test("Without the Zstd trait a zstd file is refused, naming the trait", .enabled(if: !BuiltTraits.zstd))
    func zstdRefused() throws {
        #expect {
            _ = try OverlayDocument.load(.file(Fixtures.testdata("geoparquet/geopandas-zstd-bbox.parquet")))
        } throws: { error in
            (error as? GeoConvError)?.code == .unsupported
                && (error as? GeoConvError)?.message.contains("Zstd trait") == true
        }
    }

    @Test("pyarrow's types: dates, timestamps, decimals, unsigned, float32, binary as hex, struct fields, a list")
    func pyarrowTypes() throws {
        let report = try Converter().convert(
            .file(Fixtures.testdata("geoparquet/pyarrow-types.parquet")), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSON))
        #expect(report.diagnostics.entries["geoparquet.list-column-skipped"] == nil)
        let features = try OverlayDocument.load(.file(Fixtures.testdata("geoparquet/pyarrow-types.parquet"))).features
        let first = features[0].properties
        #expect(first["day"] == .string("2024-01-01") && first["utc"] == .string("2024-01-01T12:30:05.123Z"))
        #expect(
            first["local"] == .string("2024-02-29T23:59:59.999999")
                && first["amount"] == .number(JSONNumber(literal: "12.345")!))
        #expect(first["small"] == .number(JSONNumber(-128)) && first["big_unsigned"] == .number(JSONNumber(UInt64.max)))
        #expect(first["single"] == .number(JSONNumber(literal: "0.5")!) && first["blob"] == .string("00ff"))
        #expect(first["address.city"] == .string("Paris") && first["address.zip"] == .number(JSONNumber(75001)))
        #expect(features.map { $0.properties["tags"] } == [.array(["a", "b"]), .array([]), .null])
        #expect(
            features[1].properties["amount"] == .number(JSONNumber(literal: "-0.005")!) && features[1].geometry == nil)
        #expect(
            features[2].properties["day"] == .string("1969-12-31") && features[2].properties["address.city"] == .null)
        #expect(features[0].geometry == .point(Coordinate(latitude: 2, longitude: 1)))
    }

    @Test(
        "Lists and maps of plain values, in pages v1 and v2 over several pages and row groups, as pyarrow wrote them",
        arguments: ["pyarrow-lists-v1.parquet", "pyarrow-lists-v2.parquet"])
    func listsAndMaps(_ name: String) throws {
        let report = try Converter().convert(
            .file(Fixtures.testdata("geoparquet/" + name)), to: .memory,
            options: ConversionOptions(outputFormat: .geoJSON))
        // A list of lists stays unread, and says so.
        let skipped = report.diagnostics.entries["geoparquet.list-column-skipped"]?.first.message ?? ""
        #expect(skipped.contains("(grid)"), "\(skipped)")
        let features = try OverlayDocument.load(.file(Fixtures.testdata("geoparquet/" + name))).features
        #expect(features.count == 40)
        for (i, feature) in features.enumerated() {
            // The values scripts/make-geoparquet-fixtures.py gives row i.
            var tags: JSONValue = .null
            if i % 7 != 3 {
                var list = [JSONValue](repeating: .string("t\(i)"), count: i % 4)
                if i % 5 == 1 { list.append(.null) }
                tags = .array(list)
            }
            let sizes: JSONValue =
                i % 3 == 0
                ? .array([])
                : .array([.number(JSONNumber(i)), .number(JSONNumber(-i)), .number(JSONNumber(1 << 40))])
            var attrs: JSONValue = .null
            if i % 6 != 5 {
                var object: JSONObject = [:]
                for j in 0..<(i % 3) { object["k\(j)"] = j == 1 ? .null : .number(JSONNumber(i * 10 + j)) }
                attrs = .object(object)
            }
            let keys = [
                "id", "tags", "sizes", "attrs", "stops",
                "place.city", "place.tags", "place.common", "place.rules",
            ]
            #expect(Array(feature.properties.keys) == keys, "row \(i)")
            // A list of structs: an array of objects (a null field null, a null element null).
            var stops: [JSONValue] = [.object(["at": .number(JSONNumber(i)), "name": i % 3 == 0 ? .null : "a"])]
            if i % 4 == 0 { stops.append(.null) }
            #expect(feature.properties["stops"] == .array(stops), "row \(i)")
            // A list and a map inside a struct, named by their paths as the struct's fields are.
            let placed = i % 8 != 7
            #expect(feature.properties["place.city"] == (placed ? .string("c\(i)") : .null), "row \(i)")
            let placeTags: JSONValue = placed ? .array(i % 2 == 1 ? [.string("p\(i)")] : []) : .null
            #expect(feature.properties["place.tags"] == placeTags, "row \(i)")
            let common: JSONValue = placed ? .object(["en": .string("e\(i)")]) : .null
            #expect(feature.properties["place.common"] == common, "row \(i)")
            #expect(feature.properties["place.rules"] == (placed ? .array([.object(["v": "x"])]) : .null), "row \(i)")
            #expect(feature.properties["tags"] == tags, "row \(i)")
            #expect(feature.properties["sizes"] == sizes, "row \(i)")
            #expect(feature.properties["attrs"] == attrs, "row \(i)")
            #expect(feature.geometry == .point(Coordinate(latitude: 2, longitude: 1)))
        }
        let legacyPath = Fixtures.testdata("geoparquet/pyarrow-legacy-list.parquet")
        let legacy = try OverlayDocument.load(.file(legacyPath)).features
        #expect(legacy.map { $0.properties["legacy"] } == [.array([1, 2]), .array([])])
    }

    @Test("A truncated file is an error at the byte where it breaks; an unknown codec is a usage error")
    func errors() throws {
        let report = try Self.write(Self.source)
        #expect {
            _ = try Self.read(Array(report.output.dropLast(3)))
        } throws: { error in
            let error = error as? GeoConvError
            return error?.code == .invalidInput && error?.location?.byteOffset == report.output.count - 7
                && error?.message.contains("PAR1") == true
        }
        #expect {
            _ = try Self.write(Self.source) { $0.formatOptions[GeoParquetOptions.compression] = "lzo" }
        } throws: { error in
            (error as? GeoConvError)?.code == .usage && (error as? GeoConvError)?.message.contains("lzo") == true
        }
    }
}
