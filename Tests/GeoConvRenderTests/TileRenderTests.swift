#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import Foundation
import GeoConvCore
import GeoConvGeometry
import GeoConvRender
import GeoConvTestSupport
import Testing

/// The tile renderer (`geoconv tiles render`): tile pyramids for the Maps SDK's tile layers.
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
}
#endif
