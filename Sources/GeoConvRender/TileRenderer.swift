#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
public import GeoConvCore
import GeoConvIO
public import GeoConvFormatKit
public import GeoConvGeometry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where tiles go: a `{z}/{x}/{y}.png` folder, or an MBTiles file.
public enum TileOutput: Hashable, Sendable {
    case folder(String)
    case mbtiles(String)

    /// `.mbtiles` by the path's extension, else a folder.
    public init(path: String) {
        self = path.lowercased().hasSuffix(".mbtiles") ? .mbtiles(path) : .folder(path)
    }
}

/// How tiles are drawn.
public struct TileRenderOptions: Hashable, Sendable {
    /// The zooms drawn.
    public var zooms: ClosedRange<Int>
    /// Pixels per tile side: 256, or 512 (a 512 tile at zoom z covers a 256 tile's ground
    /// at z, drawn as four 256 tiles of z + 1 would be, as `GMSTileLayer.tileSize = 512`).
    public var tileSize: Int
    /// Threads drawing tiles at once (1 draws them in turn).
    public var jobs: Int

    /// Creates options.
    public init(zooms: ClosedRange<Int>, tileSize: Int = 256, jobs: Int = ConversionOptions.defaultJobs) {
        self.zooms = zooms
        self.tileSize = tileSize
        self.jobs = jobs
    }
}

/// What `TileRenderer.render` wrote.
public struct TileRenderReport: Sendable {
    /// Tiles written, per zoom.
    public var tilesPerZoom: [Int: Int] = [:]
    /// Every tile written.
    public var tilesWritten: Int { tilesPerZoom.values.reduce(0, +) }
}

/// Draws overlays into a pyramid of tiles as `OverlayRenderer` draws a picture, for the Maps
/// SDK's tile layers: only tiles where something is drawn; each tile drawn with every
/// feature that reaches into it (strokes and pins near an edge included), clipped to the
/// tile, so tiles join seamlessly; several tiles at once with `jobs`. Memory holds the
/// features and each one's reach (rows and column runs, swept row by row) — never a list of
/// tiles or the drawn tiles, which are written as they come.
public enum TileRenderer {
    /// Draws `features` (WGS84) into `output`.
    public static func render(
        _ features: [Feature], header: DocumentHeader = DocumentHeader(), to output: TileOutput,
        options: TileRenderOptions, iconDirectory: String? = nil, diagnostics: DiagnosticLog
    ) throws(GeoConvError)
        -> TileRenderReport
    {
        guard options.tileSize == 256 || options.tileSize == 512 else {
            throw GeoConvError(.usage, "tiles are 256 or 512 pixels, not \(options.tileSize)")
        }
        guard options.zooms.lowerBound >= 0, options.zooms.upperBound <= 22 else {
            throw GeoConvError(.usage, "tile zooms are within 0…22", hint: "for example --zoom 0-12")
        }
        var mbtiles: MBTilesWriter?
        if case .mbtiles(let path) = output { mbtiles = try MBTilesWriter(path: path) }
        var report = TileRenderReport()
        let boxes = features.map(Self.box)
        do throws(GeoConvError) {
            // A batch of tiles at a time on `jobs` threads; written here in order.
            let batchSize = max(1, options.jobs) * 8
            var batch: [(tile: Tile, features: [Int])] = []
            typealias Drawn = (png: [UInt8]?, log: DiagnosticLog, error: GeoConvError?)
            func flush() throws(GeoConvError) {
                let work = { (item: (tile: Tile, features: [Int])) -> Drawn in
                    let log = DiagnosticLog()
                    do throws(GeoConvError) {
                        let png = try Self.draw(
                            item.features.map { features[$0] }, tile: item.tile, tileSize: options.tileSize,
                            header: header, iconDirectory: iconDirectory, log: log)
                        return (png, log, nil)
                    } catch {
                        return (nil, log, error)
                    }
                }
                let drawn = options.jobs > 1 ? batch.concurrentMap(work) : batch.map(work)
                for (item, result) in zip(batch, drawn) {
                    diagnostics.absorb(result.log)
                    if let error = result.error { throw error }
                    guard let png = result.png else { continue }
                    switch output {
                    case .mbtiles: try mbtiles?.add(item.tile, png: png)
                    case .folder(let folder):
                        try Self.write(png, to: folder + "/\(item.tile.z)/\(item.tile.x)/\(item.tile.y).png")
                    }
                    report.tilesPerZoom[item.tile.z, default: 0] += 1
                }
                batch.removeAll(keepingCapacity: true)
            }
            for zoom in options.zooms {
                try Self.forEachTile(Self.ranges(boxes, zoom: zoom, tileSize: options.tileSize), zoom: zoom) {
                    (tile, reaching) throws(GeoConvError) in
                    batch.append((tile, reaching))
                    if batch.count == batchSize { try flush() }
                }
                try flush()
            }
            if let mbtiles {
                try mbtiles.commit(metadata: Self.metadata(header: header, boxes: boxes, zooms: options.zooms))
            }
        } catch {
            mbtiles?.abort()
            throw error
        }
        return report
    }

    /// A feature's extent at zoom 0 in world points, and how far beyond it drawing reaches
    /// in points (half a stroke, a pin's height).
    struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var margin: Double
    }

    static func box(_ feature: Feature) -> Box? {
        var geometry = feature.geometry
        if case .circle(let c, let r)? = geometry {
            geometry = .polygon(PolygonRings(outer: CirclePolygon.ring(center: c, radius: r)))
        }
        guard let bounds = geometry?.bounds else { return nil }
        let northWest = WorldPoints.point(Coordinate(latitude: bounds.north, longitude: bounds.west))
        let southEast = WorldPoints.point(Coordinate(latitude: bounds.south, longitude: bounds.east))
        var margin = (feature.style.strokeWidth ?? 1) / 2 + 2
        switch geometry {
        case .point?, .multiPoint?, .geometryCollection?: margin = max(margin, 45)
        default: break
        }
        return Box(
            minX: min(northWest.x, southEast.x), minY: northWest.y, maxX: max(northWest.x, southEast.x),
            maxY: southEast.y,
            margin: margin)
    }

    /// The tiles a feature may reach at a zoom: its rows, and its columns (wrapped round the
    /// antimeridian, so one or two runs).
    struct Reach {
        var feature: Int
        var rows: ClosedRange<Int>
        var columns: [ClosedRange<Int>]
    }

    /// Each feature's reach at `zoom`: O(features) memory, whatever the number of tiles.
    static func ranges(_ boxes: [Box?], zoom: Int, tileSize: Int) -> [Reach] {
        let scale = pow(2, Double(zoom) + (tileSize == 512 ? 1 : 0))  // drawing points per point at zoom 0
        let count = 1 << zoom
        let side = Double(tileSize)
        var result: [Reach] = []
        for (index, box) in boxes.enumerated() {
            guard let box else { continue }
            let x0 = Int(((box.minX * scale - box.margin) / side).rounded(.down))
            let x1 = Int(((box.maxX * scale + box.margin) / side).rounded(.down))
            let y0 = max(0, Int(((box.minY * scale - box.margin) / side).rounded(.down)))
            let y1 = min(count - 1, Int(((box.maxY * scale + box.margin) / side).rounded(.down)))
            guard y0 <= y1 else { continue }
            var columns: [ClosedRange<Int>]
            if x1 - x0 + 1 >= count {
                columns = [0...(count - 1)]
            } else {
                let a = ((x0 % count) + count) % count
                let b = ((x1 % count) + count) % count
                columns = a <= b ? [a...b] : [0...b, a...(count - 1)]
            }
            result.append(Reach(feature: index, rows: y0...y1, columns: columns))
        }
        return result
    }

    /// Calls `body` for every tile some feature reaches, row by row from the north-west, with
    /// the features reaching it in input order — a sweep, so memory stays with the features.
    static func forEachTile(
        _ reaches: [Reach], zoom: Int, _ body: (Tile, [Int]) throws(GeoConvError) -> Void
    ) throws(GeoConvError) {
        let byRow = reaches.sorted { $0.rows.lowerBound < $1.rows.lowerBound }
        guard let first = byRow.first?.rows.lowerBound, let last = byRow.map(\.rows.upperBound).max() else { return }
        var next = 0
        var active: [Reach] = []
        for y in first...last {
            while next < byRow.count, byRow[next].rows.lowerBound == y {
                active.append(byRow[next])
                next += 1
            }
            active.removeAll { $0.rows.upperBound < y }
            if active.isEmpty {
                continue
            }
            // Column runs of this row, swept left to right.
            let runs = active.flatMap { reach in reach.columns.map { (run: $0, feature: reach.feature) } }.sorted {
                $0.run.lowerBound < $1.run.lowerBound
            }
            var index = 0
            var open: [(run: ClosedRange<Int>, feature: Int)] = []
            var x = runs[0].run.lowerBound
            while index < runs.count || !open.isEmpty {
                if open.isEmpty, index < runs.count { x = max(x, runs[index].run.lowerBound) }
                while index < runs.count, runs[index].run.lowerBound <= x {
                    open.append(runs[index])
                    index += 1
                }
                open.removeAll { $0.run.upperBound < x }
                if !open.isEmpty { try body(Tile(x: x, y: y, z: zoom), open.map(\.feature).sorted()) }
                x += 1
            }
        }
    }

    /// One tile's pixels, drawn from `features` (WGS84) — for a `GMSSyncTileLayer`-style
    /// server, or for checking tiles. Every feature given is drawn, clipped to the tile.
    public static func image(
        of tile: Tile, tileSize: Int = 256, features: [Feature], header: DocumentHeader = DocumentHeader(),
        diagnostics: DiagnosticLog = DiagnosticLog()
    ) throws(GeoConvError) -> RenderedImage {
        try renderer(for: tile, tileSize: tileSize, header: header, iconDirectory: nil, log: diagnostics).image(
            features)
    }

    static func renderer(
        for tile: Tile, tileSize: Int, header: DocumentHeader, iconDirectory: String?, log: DiagnosticLog
    ) -> OverlayRenderer {
        let drawZoom = Double(tile.z) + (tileSize == 512 ? 1 : 0)
        let side = Double(tileSize)
        let scale = pow(2, drawZoom)
        let centre = ((Double(tile.x) + 0.5) * side / scale, (Double(tile.y) + 0.5) * side / scale)
        let projection = ScreenProjection(worldCenter: centre, zoom: drawZoom, width: side, height: side)
        return OverlayRenderer(
            projection: projection, options: RenderOptions(width: side, height: side, background: nil),
            iconDirectory: iconDirectory, embeddedFiles: header.embeddedFiles, diagnostics: log)
    }

    /// One tile's PNG, `nil` when nothing reaches into it.
    static func draw(
        _ features: [Feature], tile: Tile, tileSize: Int, header: DocumentHeader, iconDirectory: String?,
        log: DiagnosticLog
    ) throws(GeoConvError) -> [UInt8]? {
        try renderer(for: tile, tileSize: tileSize, header: header, iconDirectory: iconDirectory, log: log).png(
            features)
    }

    static func write(_ bytes: [UInt8], to path: String) throws(GeoConvError) {
        var directory = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            directory += (directory.isEmpty && !path.hasPrefix("/") ? "" : "/") + part
            if !directory.isEmpty { mkdir(directory, 0o755) }
        }
        guard let file = fopen(path, "wb") else {
            throw GeoConvError(.io, "cannot write '\(path)'", hint: "check that the folder is writable")
        }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        guard written == bytes.count else { throw GeoConvError(.io, "cannot write '\(path)': the disk may be full") }
    }

    /// MBTiles 1.3 metadata: name, format, type, version, bounds, centre, zooms.
    static func metadata(header: DocumentHeader, boxes: [Box?], zooms: ClosedRange<Int>) -> [(String, String)] {
        var result: [(String, String)] = [
            ("name", header.name ?? "geoconv overlays"), ("format", "png"), ("type", "overlay"),
            ("version", "1.0"), ("minzoom", String(zooms.lowerBound)), ("maxzoom", String(zooms.upperBound)),
        ]
        if let description = header.description { result.append(("description", description)) }
        let present = boxes.compactMap { $0 }
        if let minX = present.map(\.minX).min(), let maxX = present.map(\.maxX).max(),
            let minY = present.map(\.minY).min(),
            let maxY = present.map(\.maxY).max()
        {
            let northWest = WorldPoints.coordinate(x: minX, y: minY)
            let southEast = WorldPoints.coordinate(x: maxX, y: maxY)
            let bounds = [northWest.longitude, southEast.latitude, southEast.longitude, northWest.latitude].map(
                DecimalFormatter.shortest)
            result.append(("bounds", bounds.joined(separator: ",")))
            let centre = WorldPoints.coordinate(x: (minX + maxX) / 2, y: (minY + maxY) / 2)
            result.append(
                (
                    "center",
                    "\(DecimalFormatter.shortest(centre.longitude)),\(DecimalFormatter.shortest(centre.latitude)),\(zooms.lowerBound)"
                ))
        }
        return result
    }
}
#endif
