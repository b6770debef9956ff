#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
#if canImport(CSQLite)
import CSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif
import Foundation
import GeoConv
import Testing
import GeoConvTestSupport

/// `geoconv tiles render` on the command line: MBTiles and folders (the tile renderer's own
/// tests are in GeoConvRenderTests).
@Suite("Tile rendering from the command line")
struct TileRenderCLITests {
    @Test(
        "Tiles only where something is drawn; the MBTiles file holds them in TMS rows with its metadata, and GDAL opens it"
    )
    func mbtiles() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("overlays.mbtiles").path
        let input = Fixtures.testdata("render/sydney-overlays.geojson")
        let result = try CLI.run(["tiles", "render", input, path, "--zoom", "10-14"])
        #expect(result.status == 0, "\(result.stderr)")
        var database: OpaquePointer?
        #expect(sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        defer { sqlite3_close(database) }
        func rows(_ sql: String) -> [[String]] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
            defer { sqlite3_finalize(statement) }
            var result: [[String]] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                result.append(
                    (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_text(statement, $0)) })
            }
            return result
        }
        let metadata = Dictionary(uniqueKeysWithValues: rows("SELECT name, value FROM metadata").map { ($0[0], $0[1]) })
        #expect(
            metadata["format"] == "png" && metadata["minzoom"] == "10" && metadata["maxzoom"] == "14"
                && metadata["name"] == "Sydney overlays")
        let tiles = rows(
            "SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level, tile_column, tile_row")
        #expect(
            rows("SELECT count(*) FROM tiles").first?.first == "\(tiles.count)" && tiles.first == ["10", "942", "409"],
            "\(tiles.prefix(3))")
        // TMS: row 409 at zoom 10 is y = 1023 - 409 = 614, the tile holding Sydney.
        #expect(Tile(containing: Coordinate(latitude: -33.86, longitude: 151.21), zoom: 10).description == "10/942/614")
        #expect(
            rows("SELECT count(*) FROM tiles WHERE zoom_level = 10").first?.first == "1",
            "one tile at zoom 10: only where features are")
        let png = rows("SELECT hex(substr(tile_data, 1, 4)) FROM tiles LIMIT 1").first?.first
        #expect(png == "89504E47")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gdalinfo") {
            let info = try CLI.run(["-c", "gdalinfo '\(path)'"], shell: true)
            #expect(
                info.stdout.contains("Driver: MBTiles/MBTiles") && info.stdout.contains("ZOOM_LEVEL=14"),
                "\(info.stdout.prefix(300))")
        }
        // The folder form, and its sibling document carrying the tile layer.
        let folder = directory.appendingPathComponent("overlays").path
        #expect(try CLI.run(["tiles", "render", input, folder, "--zoom", "12", "--tile-size", "512"]).status == 0)
        let sibling = try String(contentsOfFile: folder + ".geojson", encoding: .utf8)
        #expect(
            sibling.contains(#""geoconv:tileLayers":[{"urlTemplate":"overlays/{z}/{x}/{y}.png""#)
                && sibling.contains(#""tileSize":512"#))
        let kml = try CLI.run([folder + ".geojson", "-", "--to", "kml"])
        #expect(
            kml.stdout.contains("overlays/{z}/{x}/{y}.png"),
            "a conversion carries the layer on: \(kml.stdout.prefix(600))")
    }
}
#else
import Testing

@Suite("Rendering from the command line (needs the Rendering trait)")
struct RenderCLISkipped {
    @Test("render and tiles render on the command line", .disabled("built without the Rendering trait"))
    func skipped() {}
}
#endif
