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

/// `geoconv tiles render`: tile pyramids for the Maps SDK's tile layers.
@Suite("Tile rendering")
struct TileRenderTests {
    static let red = Color(red: 255, green: 0, blue: 0)

    static func line(_ coordinates: [Coordinate], width: Double = 6) -> Feature {
        var feature = Feature(geometry: .lineString(Path(coordinates)))
        feature.style.strokeColor = red
        feature.style.strokeWidth = width
        return feature
    }

    static func isRed(_ c: (red: Int, green: Int, blue: Int, alpha: Int)) -> Bool {
        c.alpha > 200 && c.red > 200 && c.green < 40
    }

    @Test("A 512 tile equals the four 256 tiles of the next zoom, within a pixel's antialiasing")
    func bigTileIsFourSmall() throws {
        var circle = Feature(geometry: .circle(center: Coordinate(latitude: -33.86, longitude: 151.21), radius: 800))
        circle.style.fillColor = Color(red: 0, green: 0, blue: 255, opacity: 0.5)
        circle.style.strokeWidth = 3
        let features = [
            circle,
            Self.line([
                Coordinate(latitude: -33.85, longitude: 151.19), Coordinate(latitude: -33.87, longitude: 151.23),
            ]),
        ]
        let big = Tile(containing: Coordinate(latitude: -33.86, longitude: 151.21), zoom: 13)
        let image = try TileRenderer.image(of: big, tileSize: 512, features: features)
        #expect(image.width == 512 && image.height == 512)
        var differing = 0
        var painted = 0
        for dy in 0...1 {
            for dx in 0...1 {
                let small = try TileRenderer.image(
                    of: Tile(x: 2 * big.x + dx, y: 2 * big.y + dy, z: 14), tileSize: 256, features: features)
                for y in 0..<256 {
                    for x in 0..<256 {
                        let a = image.color(x: dx * 256 + x, y: dy * 256 + y)
                        let b = small.color(x: x, y: y)
                        if a.alpha > 0 { painted += 1 }
                        if abs(a.red - b.red) > 8 || abs(a.green - b.green) > 8 || abs(a.blue - b.blue) > 8
                            || abs(a.alpha - b.alpha) > 8
                        {
                            differing += 1
                        }
                    }
                }
            }
        }
        #expect(painted > 10_000, "the tile holds the drawing: \(painted) pixels")
        #expect(
            differing <= 512 * 512 / 1000,
            "\(differing) pixels differ by more than 8 levels (antialiasing of edges): at most 0.1 % may")
    }

    @Test(
        "A line crossing a tile edge is continuous: both sides of the edge are drawn, and a stroke beside the edge reaches the next tile"
    )
    func seamless() throws {
        let zoom = 14
        let tile = Tile(containing: Coordinate(latitude: -33.86, longitude: 151.21), zoom: zoom)
        let east = tile.bounds.east
        let line = Self.line([
            Coordinate(latitude: -33.86, longitude: east - 0.01), Coordinate(latitude: -33.86, longitude: east + 0.01),
        ])
        let left = try TileRenderer.image(of: tile, features: [line])
        let right = try TileRenderer.image(of: Tile(x: tile.x + 1, y: tile.y, z: zoom), features: [line])
        let row = (0..<256).first { Self.isRed(left.color(x: 255, y: $0)) }
        let y = try #require(row, "the line reaches the left tile's last column")
        #expect(
            Self.isRed(right.color(x: 0, y: y)) && Self.isRed(right.color(x: 0, y: y + 2)),
            "and continues in the right tile's first")
        // A vertical line 2 points left of the edge, 6 points wide, shows 1 point of itself across it.
        let near = tile.bounds.east - 2 * (tile.bounds.east - tile.bounds.west) / 256
        let inset = (tile.bounds.north - tile.bounds.south) / 8  // well inside the tile above and below
        let beside = Self.line([
            Coordinate(latitude: tile.bounds.north - inset, longitude: near),
            Coordinate(latitude: tile.bounds.south + inset, longitude: near),
        ])
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try TileRenderer.render(
            [beside], to: .folder(directory.path), options: TileRenderOptions(zooms: zoom...zoom, jobs: 2),
            diagnostics: DiagnosticLog())
        #expect(report.tilesWritten == 2, "its own tile and the one its stroke reaches")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("\(zoom)").path
        ).sorted()
        #expect(files == ["\(tile.x)", "\(tile.x + 1)"])
    }

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

@Suite("Tile rendering (needs the Rendering trait)")
struct TileRenderSkipped {
    @Test("Drawing with Cairo and MBTiles with SQLite", .disabled("built without the Rendering trait"))
    func skipped() {}
}
#endif
