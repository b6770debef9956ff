import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@testable import GeoConvGeometry

@Suite("Camera, tiles and clustering")
struct MapTests {
    @Test("Vancouver and Calgary in one view (seed 001), with the default 64-point padding")
    func vancouverCalgary() {
        let vancouver = Coordinate(latitude: 49.26, longitude: -123.11)
        let calgary = Coordinate(latitude: 51.05, longitude: -114.05)
        let bounds = CoordinateBounds(vancouver, calgary)
        let viewport = (width: 390.0, height: 844.0)
        let camera = CameraPosition(target: Coordinate(latitude: 0, longitude: 0), zoom: 2)
            .applying(.fitBounds(bounds), viewport: viewport)
        #expect(camera.bearing == 0 && camera.viewingAngle == 0)
        let visible = camera.visibleBounds(viewport: viewport)
        #expect(visible.contains(vancouver) && visible.contains(calgary))
        // The tighter direction (width) has exactly the padding left over.
        let west = WorldPoints.point(vancouver).x
        let east = WorldPoints.point(calgary).x
        #expect(abs((east - west) * pow(2, camera.zoom) - (390 - 128)) < 1e-6)
        let noInsets = CameraPosition.fitting(bounds, viewport: viewport, insets: .zero)
        #expect(noInsets.zoom > camera.zoom)
    }

    @Test("Camera updates: zoom in/out/to/by, scroll by points, insets, clamping")
    func updates() {
        let start = CameraPosition(target: Coordinate(latitude: 10, longitude: 20), zoom: 5)
        #expect(start.applying(.zoomIn).zoom == 6 && start.applying(.zoomOut).zoom == 4)
        #expect(start.applying(.zoomTo(25)).zoom == 22)
        #expect(start.applying(.zoomBy(-10), zoomRange: 10...15).zoom == 10)
        let scrolled = start.applying(.scrollBy(x: 256 * 32, y: 0))  // one world width at zoom 5
        #expect(abs(scrolled.target.longitude - 20) < 1e-9 || abs(abs(scrolled.target.longitude - 20) - 360) < 1e-9)
        let right = start.applying(.scrollBy(x: 100, y: 0))
        #expect(right.target.longitude > 20 && abs(right.target.latitude - 10) < 1e-9)
        let box = CoordinateBounds(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1))
        let inset = start.applying(
            .fitBoundsWithInsets(box, EdgeInsets(top: 0, left: 200, bottom: 0, right: 0)), viewport: (400, 400))
        #expect(inset.target.longitude < 0.5)  // the box sits right of the centre, in the free area
    }

    @Test("Tiles: origin north-west, quadkeys, TMS, URL templates (appendix)")
    func tiles() throws {
        let nw = Tile(x: 0, y: 0, z: 1).bounds
        #expect(abs(nw.west - -180) < 1e-12 && abs(nw.north - 85.0511287798066) < 1e-9)
        #expect(
            Tile(containing: Coordinate(latitude: 49.26, longitude: -123.11), zoom: 10) == Tile(x: 161, y: 350, z: 10))
        let tile = Tile(x: 3, y: 5, z: 3)
        #expect(tile.quadkey == "213")
        #expect(Tile(quadkey: "213") == tile)
        #expect(Tile(quadkey: "214") == nil)
        #expect(tile.flippedY == Tile(x: 3, y: 2, z: 3) && tile.flippedY.flippedY == tile)
        #expect(
            tile.url("https://t.example/{z}/{x}/{y}.png?q={quadkey}&tms={-y}")
                == "https://t.example/3/3/5.png?q=213&tms=2")
        #expect(TileLayer(urlTemplate: "https://t/{z}/{x}/{y}").url(for: tile) == "https://t/3/3/5")
        // Tiles covering a line across two tiles, and a polygon's interior.
        let line = Geometry.lineString([
            Coordinate(latitude: 10, longitude: -10), Coordinate(latitude: 10, longitude: 10),
        ])
        #expect(Tile.covering(line, zoom: 1) == [Tile(x: 0, y: 0, z: 1), Tile(x: 1, y: 0, z: 1)])
        let square = Geometry.polygon(
            PolygonRings(outer: [
                Coordinate(latitude: -70, longitude: -80), Coordinate(latitude: -70, longitude: 80),
                Coordinate(latitude: 70, longitude: 80), Coordinate(latitude: 70, longitude: -80),
            ]))
        #expect(
            Tile.covering(square, zoom: 2) == (0...3).flatMap { y in [Tile(x: 1, y: y, z: 2), Tile(x: 2, y: y, z: 2)] })
    }

    @Test("Tiles agree with mercantile", .enabled(if: mercantilePython != nil))
    func mercantile() throws {
        var generator = SplitMix64(seed: 11)
        var lines: [String] = []
        var ours: [String] = []
        for _ in 0..<300 {
            let lat = Double.random(in: -85...85, using: &generator)
            let lng = Double.random(in: -180..<180, using: &generator)
            let zoom = Int.random(in: 0...18, using: &generator)
            lines.append("\(lng) \(lat) \(zoom)")
            let t = Tile(containing: Coordinate(latitude: lat, longitude: lng), zoom: zoom)
            ours.append("\(t.x) \(t.y) \(t.z) \(t.quadkey)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(mercantilePython))
        process.arguments = [
            "-c",
            """
            import sys, mercantile
            for line in sys.stdin.read().split("\\n"):
                if not line: continue
                lng, lat, z = line.split(); t = mercantile.tile(float(lng), float(lat), int(z))
                print(t.x, t.y, t.z, mercantile.quadkey(t))
            """,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.joined(separator: "\n").utf8))
        try input.fileHandleForWriting.close()
        let theirs = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n"
        ).map(String.init)
        process.waitUntilExit()
        #expect(theirs == ours)
    }

    /// The algorithm written the slow, obvious way: a linear scan instead of the index.
    static func bruteForce(
        _ positions: [Coordinate], zoom: Double, variant: MarkerClusterer.Variant, distance: Double = 100
    ) -> [[Int]] {
        let points = positions.map(WorldPoints.point)
        let h = variant == .ios ? distance / pow(2, zoom) : distance / 2 / pow(2, zoom.rounded(.down))
        var visited = Set<Int>()
        var best: [Int: Double] = [:]
        var owner: [Int: Int] = [:]
        var clusters: [Int] = []
        for candidate in 0..<positions.count where !visited.contains(candidate) {
            let c = points[candidate]
            let id = clusters.count
            clusters.append(candidate)
            for item in 0..<positions.count {
                let p = points[item]
                guard abs(p.x - c.x) <= h, abs(p.y - c.y) <= h else { continue }
                let d = (p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y)
                if let existing = best[item], existing <= d, owner[item] != nil { continue }
                best[item] = d
                owner[item] = id
                visited.insert(item)
            }
        }
        var members = [[Int]](repeating: [], count: clusters.count)
        for item in 0..<positions.count { members[owner[item] ?? 0].append(item) }
        return members
    }

    @Test("The markers' Morton order: sorted by code, equal codes in input order, digits in every 16-bit place")
    func mortonOrder() {
        var generator = SplitMix64(seed: 7)
        var codes: [UInt64] = []
        for i in 0..<5000 {
            switch i % 4 {
            case 0: codes.append(UInt64.random(in: 0...UInt64(0x3FFF_FFFF_FFFF_FFFF), using: &generator))
            case 1: codes.append(codes[Int.random(in: 0..<codes.count, using: &generator)])  // a duplicate
            case 2: codes.append(UInt64.random(in: 0...0xFFFF, using: &generator))  // only the lowest digit
            default: codes.append(UInt64.random(in: 0...7, using: &generator) << 48)  // only the highest
            }
        }
        let (sorted, order) = MarkerClusterer.sortedByCode(codes)
        let reference = codes.indices.sorted { (codes[$0], $0) < (codes[$1], $1) }
        #expect(order.count == codes.count)
        let misplaced = zip(order, reference).filter { Int($0) != $1 }.count
        #expect(misplaced == 0, "\(misplaced) of \(codes.count) items out of place")
        #expect(zip(sorted, reference).allSatisfy { $0 == codes[$1] })
        #expect(MarkerClusterer.sortedByCode([]).order.isEmpty)
        #expect(MarkerClusterer.sortedByCode([5, 5, 5]).order == [0, 1, 2])
    }

    @Test(
        "Clustering equals a brute-force reference on random data", arguments: [MarkerClusterer.Variant.ios, .android])
    func clustering(variant: MarkerClusterer.Variant) {
        var generator = SplitMix64(seed: 3)
        var positions: [Coordinate] = []
        for i in 0..<1500 {
            // Mostly around a few centres, some everywhere, and exact duplicates.
            if i % 10 == 9, let last = positions.last {
                positions.append(last)
            } else if i % 3 == 0 {
                positions.append(
                    Coordinate(
                        latitude: Double.random(in: -80...80, using: &generator),
                        longitude: Double.random(in: -180..<180, using: &generator)))
            } else {
                let centre = [(-33.86, 151.21), (51.5, -0.12), (40.7, -74.0)][i % 3]
                positions.append(
                    Coordinate(
                        latitude: centre.0 + Double.random(in: -2...2, using: &generator),
                        longitude: centre.1 + Double.random(in: -2...2, using: &generator)))
            }
        }
        let clusterer = MarkerClusterer(positions: positions, variant: variant)
        for zoom in [0.0, 3, 5.5, 8, 12] {
            let fast = clusterer.clusters(atZoom: zoom)
            let slow = Self.bruteForce(positions, zoom: zoom, variant: variant)
            #expect(fast.map(\.members) == slow, "zoom \(zoom)")
            #expect(fast.reduce(0) { $0 + $1.members.count } == positions.count)
            for cluster in fast { #expect(cluster.members.contains { positions[$0] == cluster.position }) }
        }
    }

    @Test("geoconv tile, camera, tiles and cluster on the command line")
    func commands() throws {
        #expect(try CLI.run(["tile", "49.26", "-123.11", "--zoom", "10"]).stdout == "10/161/350\n")
        let camera = try CLI.run([
            "camera", Fixtures.testdata("polyline/sydney.polyline"), "--viewport", "390x844", "--json",
        ])
        #expect(camera.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(camera.stdout.utf8)) as? [String: Any])
        let target = try #require(json["target"] as? [String: Double])
        #expect(abs((target["latitude"] ?? 0) - -33.86) < 0.05 && abs((target["longitude"] ?? 0) - 151.24) < 0.05)
        #expect(
            json["zoom"] as? Double != nil && json["bearing"] as? Double == 0 && json["viewingAngle"] as? Double == 0)
        let tiles = try CLI.run(["tiles", Fixtures.testdata("polyline/hyde-park.polyline"), "--zoom", "15"])
        #expect(tiles.stdout == "15/30147/19663\n15/30147/19664\n")
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("clusters.geojson").path
        // At zoom 12 (±100 points ≈ ±0.034°): the three harbour markers cluster; Bondi, Manly and
        // Katoomba stay alone and keep their properties.
        let clustered = try CLI.run([
            "cluster", Fixtures.testdata("geojson/markers.geojson"), output, "--zoom", "12", "--members",
        ])
        #expect(clustered.status == 0, "\(clustered.stderr)")
        let (_, features, _) = try readGeoJSON(String(contentsOfFile: output, encoding: .utf8))
        #expect(features.count == 4)
        let cluster = try #require(features.first { $0.properties["count"] != nil })
        #expect(cluster.properties["count"] == 3)
        #expect(cluster.properties["members"] == ["opera", "quay", "gardens"])
        #expect(cluster.geometry == .point(Coordinate(latitude: -33.856784, longitude: 151.215297)))
        #expect(features.contains { $0.title == "Katoomba" && $0.id == .string("katoomba") })
    }
}

/// A Python with mercantile, if one is installed.
let mercantilePython: String? = {
    for candidate in ["/work/benchdata/venv/bin/python", "bench-out/venv/bin/python", "/usr/bin/python3"] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: candidate)
        process.arguments = ["-c", "import mercantile"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { continue }
        process.waitUntilExit()
        if process.terminationStatus == 0 { return candidate }
    }
    return nil
}()
