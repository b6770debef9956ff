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
