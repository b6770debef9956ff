import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// pyarrow, geopandas and DuckDB (from PyPI; `scripts/test` installs them), when present.
enum PythonReaders {
    static let available: Bool = (try? run("import pyarrow, geopandas, duckdb")) != nil

    /// Runs a Python program; its standard output, or an error with its standard error.
    static func run(_ program: String, _ arguments: [String] = []) throws -> Data {
        try Tools.output(of: "/usr/bin/env", ["python3", "-c", program] + arguments)
    }

    /// What each reader makes of a file, as JSON: pyarrow's column types and rows (geometry
    /// and bbox left out), geopandas' geometries as WKT and CRS, DuckDB's rows whose bbox
    /// lies east of 2.1°, and pyarrow's reading of the row group statistics.
    static let program = #"""
        import json, sys
        import pyarrow.parquet as pq, geopandas, duckdb
        path = sys.argv[1]
        table = pq.read_table(path)
        types = {f.name: str(f.type) for f in table.schema}
        rows = [{k: v for k, v in r.items() if k not in ("geometry", "bbox")} for r in table.to_pylist()]
        frame = geopandas.read_parquet(path)
        wkt = [None if g is None else g.wkt for g in frame.geometry]
        east = duckdb.sql(f"SELECT name FROM read_parquet('{path}') WHERE bbox.xmin > 2.1 ORDER BY name").fetchall()
        meta = pq.ParquetFile(path).metadata
        stats = []
        for g in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                col = meta.row_group(g).column(c)
                if col.path_in_schema == "bbox.xmin" and col.statistics is not None:
                    stats.append([col.statistics.min, col.statistics.max])
        print(json.dumps({"types": types, "rows": rows, "wkt": wkt, "crs": None if frame.crs is None else frame.crs.to_string(),
                          "east": [r[0] for r in east], "stats": stats}, default=str))
        """#
}

extension PythonReaders {
    /// What pyarrow, geopandas and DuckDB see of a GeoParquet 1.1 / 2.0 / both file: the
    /// `geo` metadata's version, the geometry column's logical type, the columns, each row
    /// group's geospatial statistics, geopandas' WKT and CRS, DuckDB's type of the column.
    static let versionProgram = #"""
        import json, sys
        import pyarrow.parquet as pq, geopandas, duckdb
        path = sys.argv[1]
        f = pq.ParquetFile(path)
        geo = json.loads(f.metadata.metadata[b"geo"])
        schema = f.schema
        logical = str(schema.column(schema.names.index("geometry")).logical_type)
        groups = []
        for g in range(f.metadata.num_row_groups):
            for c in range(f.metadata.num_columns):
                col = f.metadata.row_group(g).column(c)
                if col.path_in_schema == "geometry":
                    s = col.geo_statistics
                    groups.append(None if s is None else {"rows": f.metadata.row_group(g).num_rows,
                        "box": [s.xmin, s.xmax, s.ymin, s.ymax], "types": list(s.geospatial_types)})
        frame = geopandas.read_parquet(path)
        wkt = [None if g is None else g.wkt for g in frame.geometry]
        duck = duckdb.sql(f"SELECT typeof(geometry), count(*) FROM read_parquet('{path}') GROUP BY 1").fetchall()
        print(json.dumps({"version": geo["version"], "covering": "covering" in geo["columns"]["geometry"],
                          "logical": logical, "columns": [schema.column(i).path for i in range(len(schema.names))],
                          "groups": groups, "wkt": wkt,
                          "crs": None if frame.crs is None else frame.crs.to_string(),
                          "duck": [[r[0], r[1]] for r in duck]}, default=str))
        """#
}

@Suite("GeoParquet that pyarrow, geopandas and DuckDB read", .enabled(if: PythonReaders.available))
struct GeoParquetReadersTests {
    static func readers(of bytes: [UInt8]) throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-\(UUID().uuidString).parquet")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let data = try PythonReaders.run(PythonReaders.program, [file.path])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        "Same values and types in pyarrow, the same geometries in geopandas, a bbox filter in DuckDB; row group statistics",
        arguments: [1, 4])
    func readers(rowGroupRows: Int) throws {
        var options = ConversionOptions()
        options.outputFormat = .geoParquet
        options.formatOptions[GeoParquetOptions.rowGroupRows] = rowGroupRows * 2
        let report = try Converter().convert(.file(GeoParquetTests.source), to: .memory, options: options)
        let seen = try Self.readers(of: report.output)
        let types = try #require(seen["types"] as? [String: String])
        #expect(
            types["name"] == "string" && types["kind"] == "string" && types["rank"] == "int64"
                && types["price"] == "double"
                && types["open"] == "bool" && types["note"] == "string" && types["geometry"] == "binary")
        #expect(
            types["bbox"]
                == "struct<xmin: double not null, ymin: double not null, xmax: double not null, ymax: double not null>")
        let rows = try #require(seen["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Kiosk", "Ring road", "Park", "Islands", "Nowhere", "Stops"])
        #expect(rows.map { $0["rank"] as? Int } == [1, 2, 3, -4, 9_007_199_254_740_993, 6])
        #expect(rows.map { $0["price"] as? Double } == [2.5, nil, 0.125, 1e21, 3, 0])
        #expect(rows.map { $0["open"] as? Bool } == [true, false, true, false, nil, true])
        #expect(rows[0]["note"] as? String == "Ünïcode ✓")
        // geopandas: the geometries of the source, as shapely writes them.
        let wkt = try #require(seen["wkt"] as? [Any])
        #expect(
            wkt.map { $0 as? String } == [
                "POINT Z (2.35 48.85 35.5)", "LINESTRING (2.3 48.8, 2.4 48.9, 2.5 48.85)",
                "POLYGON ((2 48, 2.2 48, 2.2 48.2, 2 48.2, 2 48), (2.05 48.05, 2.05 48.1, 2.1 48.1, 2.1 48.05, 2.05 48.05))",
                "MULTIPOLYGON (((-1 -1, 1 -1, 1 1, -1 -1)), ((10 10, 11 10, 11 11, 10 10)))", nil,
                "MULTIPOINT ((-179.5 -89.5), (179.5 89.5))",
            ])
        #expect(seen["crs"] as? String == "OGC:CRS84")
        // DuckDB filters on the covering column: the kiosk, the ring road and the second island lie east of 2.1°… by xmin.
        #expect(seen["east"] as? [String] == ["Kiosk", "Ring road"])
        let stats = try #require(seen["stats"] as? [[Double]])
        let groups = (6 + rowGroupRows * 2 - 1) / (rowGroupRows * 2)
        #expect(stats.count == groups && stats.first == (rowGroupRows == 1 ? [2.3, 2.35] : [-179.5, 2.35]))
    }

    @Test(
        "GEOPARQUET_VERSION 1.1, 2.0, BOTH: the metadata, the GEOMETRY type, each row group's statistics",
        arguments: ["1.1", "2.0", "BOTH"])
    func versions(_ version: String) throws {
        var options = ConversionOptions()
        options.outputFormat = .geoParquet
        options.formatOptions[GeoParquetOptions.rowGroupRows] = 4
        options.formatOptions[GeoParquetOptions.version] = version
        let report = try Converter().convert(.file(GeoParquetTests.source), to: .memory, options: options)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-\(UUID().uuidString).parquet")
        try Data(report.output).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let data = try PythonReaders.run(PythonReaders.versionProgram, [file.path])
        let seen = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(seen["version"] as? String == (version == "2.0" ? "2.0.0" : "1.1.0"))
        #expect(seen["covering"] as? Bool == (version != "2.0"))
        #expect((seen["columns"] as? [String])?.contains("bbox.xmin") == (version != "2.0"))
        #expect(seen["logical"] as? String == (version == "1.1" ? "None" : "Geometry(crs=)"))
        let groups = try #require(seen["groups"] as? [Any])
        #expect(groups.count == 2)
        if version == "1.1" {
            #expect(groups.allSatisfy { $0 is NSNull })
        } else {
            // Rows 1–4: a point Z, a line, a polygon with a hole, a multipolygon; 5–6: none, a multipoint.
            let first = try #require(groups.first as? [String: Any])
            #expect(first["rows"] as? Int == 4 && first["box"] as? [Double] == [-1, 11, -1, 48.9])
            #expect(first["types"] as? [Int] == [2, 3, 6, 1001])
            let second = try #require(groups.last as? [String: Any])
            #expect(second["box"] as? [Double] == [-179.5, 179.5, -89.5, 89.5] && second["types"] as? [Int] == [4])
        }
        let wkt = try #require(seen["wkt"] as? [Any])
        #expect(wkt.first as? String == "POINT Z (2.35 48.85 35.5)" && wkt.count == 6)
        #expect(seen["crs"] as? String == "OGC:CRS84")
        let duck = try #require(seen["duck"] as? [[Any]])
        #expect(duck.count == 1 && (duck.first?.first as? String)?.hasPrefix("GEOMETRY") == true)
        // geoconv reads each back as it wrote it.
        let back = try GeoParquetTests.read(report.output)
        #expect(back.map(\.geometry) == (try GeoParquetTests.read(try Self.oneOne())).map(\.geometry))
    }

    /// The source written as GeoParquet 1.1.
    static func oneOne() throws -> [UInt8] {
        var options = ConversionOptions()
        options.outputFormat = .geoParquet
        options.formatOptions[GeoParquetOptions.version] = "1.1"
        return try Converter().convert(.file(GeoParquetTests.source), to: .memory, options: options).output
    }

    /// geopandas writes each kind in GeoArrow's native encoding (nulls, empties, holes, Z)
    /// and prints the WKT it reads back, one line each.
    static let geoArrowProgram = #"""
        import sys, geopandas, shapely
        kind, path = sys.argv[1], sys.argv[2]
        shapes = {
          "point": ["POINT (30 10)", "POINT EMPTY", None, "POINT (-179.5 89.25)"],
          "pointz": ["POINT Z (30 10 5)", None, "POINT Z (1 2 3)"],
          "linestring": ["LINESTRING (30 10, 10 30, 40 40)", None, "LINESTRING EMPTY", "LINESTRING (1 1, 2 2)"],
          "polygon": ["POLYGON ((35 10, 45 45, 15 40, 10 20, 35 10), (20 30, 35 35, 30 20, 20 30))", None,
                      "POLYGON EMPTY", "POLYGON ((0 0, 1 0, 0 1, 0 0))"],
          "multipoint": ["MULTIPOINT ((10 40), (40 30), (20 20))", "MULTIPOINT EMPTY", None],
          "multilinestring": ["MULTILINESTRING ((10 10, 20 20, 10 40), (40 40, 30 30, 40 20, 30 10))", None,
                              "MULTILINESTRING EMPTY"],
          "multipolygon": ["MULTIPOLYGON (((40 40, 20 45, 45 30, 40 40)), ((20 35, 10 30, 10 10, 30 5, 45 20, 20 35), "
                           "(30 20, 20 15, 20 25, 30 20)))", None, "MULTIPOLYGON EMPTY",
                           "MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)))"],
        }[kind]
        frame = geopandas.GeoDataFrame({"n": range(len(shapes))},
            geometry=[None if s is None else shapely.from_wkt(s) for s in shapes], crs="OGC:CRS84")
        frame.to_parquet(path, geometry_encoding="geoarrow")
        for g in geopandas.read_parquet(path).geometry:
            print("null" if g is None else g.wkt)
        """#

    @Test(
        "GeoArrow's native encodings (geopandas' geometry_encoding='geoarrow') read as geopandas reads them",
        arguments: ["point", "pointz", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon"])
    func geoArrow(_ kind: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-\(UUID().uuidString).parquet")
        defer { try? FileManager.default.removeItem(at: file) }
        let printed = String(decoding: try PythonReaders.run(Self.geoArrowProgram, [kind, file.path]), as: UTF8.self)
        let expected = printed.split(separator: "\n").map(String.init)
        let read = try GeoParquetTests.read(Array(try Data(contentsOf: file)))
        #expect(read.count == expected.count)
        for (feature, wkt) in zip(read, expected) {
            guard wkt != "null" else {
                #expect(feature.geometry == nil, "\(kind): \(String(describing: feature.geometry)) for null")
                continue
            }
            let theirs = try WKTParser.parse(wkt)
            #expect(feature.geometry == theirs.geometry, "\(kind): \(wkt)")
        }
    }

    @Test("SORT_BY_BBOX writes the rows along the Hilbert curve of their boxes' centres, each as it was")
    func sorted() throws {
        var random = SplitMix64(seed: 12)
        let features = (0..<3_000).map { n in
            let lon = Double.random(in: -170...170, using: &random)
            let lat = Double.random(in: -80...80, using: &random)
            let geometry: Geometry? =
                n % 97 == 5
                ? nil
                : n % 2 == 0
                    ? .point(Coordinate(latitude: lat, longitude: lon))
                    : .lineString(
                        Path([
                            Coordinate(latitude: lat, longitude: lon),
                            Coordinate(latitude: lat + 1, longitude: lon + 2),
                        ]))
            return Feature(geometry: geometry, properties: ["n": .number(JSONNumber(n))])
        }
        var options = ConversionOptions()
        options.formatOptions[GeoParquetOptions.sortByBox] = true
        options.formatOptions[GeoParquetOptions.rowGroupRows] = 500
        let (bytes, _) = try FormatIO.write(features, as: .geoParquet, options: options)
        let read = try GeoParquetTests.read(bytes)
        // The same order FlatGeobuf's index writes (one Hilbert curve over the boxes' extent).
        let hilbert = try #require(FileFormat.flatGeobuf.capabilities.writtenOrder)
        let order = hilbert(features.map(\.geometry))
        #expect(read.map { $0.properties["n"]?.doubleValue.map { Int($0) } ?? -1 } == order)
        #expect(order.allSatisfy { read[order.firstIndex(of: $0) ?? 0].geometry == features[$0].geometry })
    }

    @Test("A projected CRS is written as PROJJSON and read by geopandas as that CRS", .enabled(if: BuiltTraits.proj))
    func projectedCRS() throws {
        var options = ConversionOptions()
        options.outputFormat = .geoParquet
        options.targetCRS = "EPSG:2154"
        let report = try Converter().convert(.file(GeoParquetTests.source), to: .memory, options: options)
        let seen = try Self.readers(of: report.output)
        #expect(seen["crs"] as? String == "EPSG:2154")
        let back = try GeoParquetTests.read(report.output)
        #expect(back.count == 6)
        var again = ConversionOptions()
        again.inputFormat = .geoParquet
        let document = try OverlayDocument.load(
            .memory(report.output, name: "l93.parquet"), options: again, reprojectingToWGS84: true)
        if case .point(let c)? = document.features[0].geometry {
            #expect(abs(c.longitude - 2.35) < 1e-9 && abs(c.latitude - 48.85) < 1e-9)
        } else {
            Issue.record("the first feature is not a point")
        }
    }
}
