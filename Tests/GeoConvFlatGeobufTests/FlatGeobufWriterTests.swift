import Foundation
import GeoConvCore
@testable import GeoConvFlatGeobuf
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

/// FlatGeobuf written by geoconv and read back by geoconv's reader: the columns and their
/// types, the geometries part by part, the CRS, the features in the order of the packed
/// Hilbert R-tree, and the tree itself answering a box as a scan of every feature would.
@Suite("FlatGeobuf writing")
struct FlatGeobufWriterTests {
    static func c(_ lon: Double, _ lat: Double, _ z: Double? = nil) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon, altitude: z)
    }

    static func roundTrip(
        _ features: [Feature], header: DocumentHeader = DocumentHeader(),
        options: ConversionOptions = ConversionOptions()
    ) throws -> (read: [Feature], header: DocumentHeader, written: DiagnosticLog, bytes: [UInt8]) {
        let (bytes, log) = try FormatIO.write(features, header: header, as: .flatGeobuf, options: options)
        let read = try FormatIO.read(bytes: bytes, as: .flatGeobuf, name: "out.fgb")
        return (read.features, read.header, log, bytes)
    }

    @Test("Columns typed from every value: Bool, Long, ULong, Double, String, Json; a mix is String, reported")
    func columnTypes() throws {
        let features = [
            Feature(
                id: .number(JSONNumber(7)), geometry: .point(Self.c(1, 2)), title: "first",
                properties: [
                    "flag": .bool(true), "count": .number(JSONNumber(12)),
                    "big": .number(JSONNumber(uncheckedLiteral: "18446744073709551615")),
                    "ratio": .number(JSONNumber(12)), "tags": .array([.string("a"), .number(JSONNumber(1))]),
                    "mixed": .number(JSONNumber(3)),
                ]),
            Feature(
                geometry: .point(Self.c(3, 4)),
                properties: [
                    "flag": .bool(false), "count": .number(JSONNumber(-4)), "big": .number(JSONNumber(5)),
                    "ratio": .number(JSONNumber(uncheckedLiteral: "12.5")), "tags": .object(["k": .null]),
                    "mixed": .string("three"),
                ]),
        ]
        let (read, _, log, bytes) = try Self.roundTrip(features)
        let header: FlatGeobufHeader = try #require(try Self.header(of: bytes))
        let types = Dictionary(uniqueKeysWithValues: header.columns.map { column in (column.name, column.type) })
        #expect(header.columns.map(\.name) == ["id", "name", "flag", "count", "big", "ratio", "tags", "mixed"])
        #expect(types["flag"] == .bool && types["count"] == .long && types["big"] == .unsignedLong)
        #expect(types["ratio"] == .double && types["tags"] == .json && types["mixed"] == .string)
        let first = try #require(read.first { $0.title == "first" })
        #expect(first.properties["big"] == .number(JSONNumber(uncheckedLiteral: "18446744073709551615")))
        #expect(first.properties["tags"] == .array([.string("a"), .number(JSONNumber(1))]))
        #expect(first.properties["mixed"] == .string("3"))
        #expect(first.properties["ratio"]?.doubleValue == 12)
        let second = try #require(read.first { $0.title == nil })
        #expect(second.properties["count"] == .number(JSONNumber(-4)) && second.properties["flag"] == .bool(false))
        #expect(second.properties["tags"] == .object(["k": .null]) && second.properties["ratio"]?.doubleValue == 12.5)
        #expect(log.entries["flatgeobuf.mixed-types-as-text"] != nil)
        #expect(log.entries["flatgeobuf.integers-as-double"]?.first.isNote == true)
    }

    /// The points file's direct layout against the general builder's, byte for byte, for
    /// coordinates of every kind (negative zero, extremes, subnormals) and properties of
    /// every length; and what is not a plain 2-D point is left to the builder.
    @Test("A point feature laid out directly is the builder's, byte for byte")
    func pointFeatureLayout() throws {
        var random = SplitMix64(seed: 5)
        let special: [Double] = [0, -0.0, 180, -180, 90, -90, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        for n in 0..<200 {
            let x = n < special.count ? special[n] : Double.random(in: -180...180, using: &random)
            let y = n < special.count ? special[special.count - 1 - n] : Double.random(in: -90...90, using: &random)
            let properties = (0..<(n % 11)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n) }
            var table = FlatBufferBuilder.Table()
            table.add(0, .table(FlatGeobufEncoding.table(.point(Self.c(x, y)), hasZ: false, typed: false)))
            table.add(1, .bytes(properties))
            var direct: [UInt8] = []
            FlatGeobufEncoding.pointFeature(x: x, y: y, properties: properties, into: &direct)
            #expect(direct == FlatBufferBuilder.sizePrefixed(table), "x \(x), y \(y), \(properties.count) bytes")
            // ISO WKB, little-endian: byte order 1, type 1, x, y (after a byte of something else).
            let wkb = [0xFF, 1, 1, 0, 0, 0] + Self.bytes(x) + Self.bytes(y)
            let point = try #require(FlatGeobufEncoding.plainPoint(wkb, 1..<wkb.count))
            #expect(point.x.bitPattern == x.bitPattern && point.y.bitPattern == y.bitPattern)
        }
        let others: [(String, [UInt8])] = [
            ("POINT Z", [1, 0xE9, 3, 0, 0] + Self.bytes(1) + Self.bytes(2) + Self.bytes(3)),
            ("POINT EMPTY", [1, 1, 0, 0, 0] + Self.bytes(.nan) + Self.bytes(.nan)),
            ("big-endian", [0, 0, 0, 0, 1] + Self.bytes(1).reversed() + Self.bytes(2).reversed()),
            ("LINESTRING", [1, 2, 0, 0, 0, 1, 0, 0, 0] + Self.bytes(1) + Self.bytes(2)),
        ]
        for (name, wkb) in others { #expect(FlatGeobufEncoding.plainPoint(wkb, 0..<wkb.count) == nil, "\(name)") }
    }

    /// Lines and polygons (one ring and several, typed or not) made from their WKB are the
    /// tables made from the geometries, byte for byte; what is not a 2-D line or polygon with
    /// positions in every ring is left to the general way.
    @Test("A line or polygon's table made from its WKB is the one made from its geometry")
    func lineOrPolygonFromWKB() throws {
        var random = SplitMix64(seed: 9)
        func ring(_ count: Int) -> [Coordinate] {
            (0..<count).map { _ in
                Self.c(Double.random(in: -180...180, using: &random), Double.random(in: -90...90, using: &random))
            }
        }
        func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian) { Array($0) } }
        func wkb(code: Int, _ paths: [[Coordinate]]) -> [UInt8] {
            var out: [UInt8] = [1] + u32(code) + (code == 3 ? u32(paths.count) : [])
            for path in paths {
                out += u32(path.count)
                for c in path { out += Self.bytes(c.longitude) + Self.bytes(c.latitude) }
            }
            return out
        }
        for n in 0..<60 {
            let rings = (0..<(1 + n % 4)).map { _ in ring(3 + n % 7) }
            let line = ring(2 + n % 5)
            let cases: [(Geometry, [UInt8])] = [
                (
                    .polygon(PolygonRings(outer: Path(rings[0]), holes: rings.dropFirst().map { Path($0) })),
                    wkb(code: 3, rings)
                ),
                (.lineString(Path(line)), wkb(code: 2, [line])),
            ]
            for (geometry, bytes) in cases {
                for typed in [false, true] {
                    let direct = try #require(
                        FlatGeobufEncoding.lineOrPolygonTable(bytes, 0..<bytes.count, typed: typed))
                    let made = FlatGeobufEncoding.table(geometry, hasZ: false, typed: typed)
                    #expect(FlatBufferBuilder.sizePrefixed(direct) == FlatBufferBuilder.sizePrefixed(made))
                }
            }
        }
        let others: [(String, [UInt8])] = [
            ("a polygon without rings", [1] + u32(3) + u32(0)),
            ("an empty ring", [1] + u32(3) + u32(1) + u32(0)),
            ("an empty line", [1] + u32(2) + u32(0)),
            ("LINESTRING Z", [1] + u32(1002) + u32(1) + Self.bytes(1) + Self.bytes(2) + Self.bytes(3)),
            ("big-endian", [0] + u32(2).reversed() + u32(1).reversed() + Self.bytes(1) + Self.bytes(2)),
            ("a NaN", [1] + u32(2) + u32(1) + Self.bytes(.nan) + Self.bytes(2)),
            ("bytes after it", wkb(code: 2, [[Self.c(1, 2)]]) + [0]),
            ("MULTIPOLYGON", [1] + u32(6) + u32(0)),
        ]
        for (name, bytes) in others {
            #expect(FlatGeobufEncoding.lineOrPolygonTable(bytes, 0..<bytes.count, typed: false) == nil, "\(name)")
        }
    }

    static func bytes(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }

    @Test("Geometries part by part: rings with their holes, lines, multi-polygons, collections; altitudes")
    func geometries() throws {
        let outer = Path([Self.c(0, 0), Self.c(4, 0), Self.c(4, 4), Self.c(0, 4), Self.c(0, 0)])
        let hole = Path([Self.c(1, 1), Self.c(1, 2), Self.c(2, 2), Self.c(1, 1)])
        let geometries: [Geometry] = [
            .polygon(PolygonRings(outer: outer, holes: [hole])),
            .multiLineString([Path([Self.c(0, 0), Self.c(1, 1)])]),
            .multiLineString([Path([Self.c(0, 0), Self.c(1, 1)]), Path([Self.c(2, 2), Self.c(3, 3), Self.c(4, 5)])]),
            .multiPolygon([PolygonRings(outer: outer, holes: [hole]), PolygonRings(outer: hole)]),
            .geometryCollection([.point(Self.c(9, 9)), .lineString(Path([Self.c(0, 1), Self.c(2, 3)]))]),
            .multiPoint([Self.c(5, 5), Self.c(6, 6)]),
        ]
        let features = geometries.enumerated().map { index, geometry in
            Feature(geometry: geometry, properties: ["n": .number(JSONNumber(index))])
        }
        let (read, _, log, _) = try Self.roundTrip(features)
        #expect(log.isEmpty)
        for feature in read {
            let n = try #require(feature.properties["n"]?.doubleValue.map { Int($0) })
            #expect(feature.geometry == geometries[n], "feature \(n)")
        }
        // Altitudes for all when one has them: the others at 0, each reported at its place.
        let mixed = [
            Feature(geometry: .point(Self.c(1, 1)), properties: ["n": .number(JSONNumber(0))]),
            Feature(geometry: .point(Self.c(2, 2, 30)), properties: ["n": .number(JSONNumber(1))]),
            Feature(geometry: .point(Self.c(3, 3)), properties: ["n": .number(JSONNumber(2))]),
        ]
        let (read3D, _, log3D, _) = try Self.roundTrip(mixed)
        #expect(
            Set(read3D.compactMap { $0.geometry }) == [
                .point(Self.c(1, 1, 0)), .point(Self.c(2, 2, 30)), .point(Self.c(3, 3, 0)),
            ])
        #expect(log3D.entries["flatgeobuf.missing-z-as-zero"]?.count == 2)
    }

    @Test("An empty geometry is none, an empty member of a collection dropped: each reported")
    func empties() throws {
        let features = [
            Feature(geometry: .empty(.lineString), title: "empty"),
            Feature(geometry: .geometryCollection([.empty(.point), .point(Self.c(1, 2))]), title: "member"),
            Feature(geometry: nil, title: "none"),
        ]
        let (read, _, log, _) = try Self.roundTrip(features)
        let byTitle = Dictionary(uniqueKeysWithValues: read.map { ($0.title ?? "", $0) })
        #expect(byTitle["empty"]?.geometry == nil && byTitle["none"]?.geometry == nil)
        #expect(byTitle["member"]?.geometry == .geometryCollection([.point(Self.c(1, 2))]))
        #expect(log.entries["flatgeobuf.empty-as-null"]?.first.isNote == true)
        #expect(log.entries["flatgeobuf.empty-member-dropped"]?.count == 1)
    }

    @Test("The header: name, description, CRS by authority and code in any spelling, WKT otherwise")
    func header() throws {
        var header = DocumentHeader()
        header.name = "parcels"
        header.description = "from the survey"
        for (crs, expected) in [
            ("urn:ogc:def:crs:EPSG::25832", "EPSG:25832"), ("EPSG:3857", "EPSG:3857"), ("ESRI:102645", "ESRI:102645"),
        ] {
            header.crs = crs
            let (_, readHeader, _, _) = try Self.roundTrip(
                [Feature(geometry: .point(Self.c(500_000, 5_000_000)))], header: header)
            #expect(readHeader.crs == expected && readHeader.name == "parcels")
            #expect(readHeader.description == "from the survey")
        }
        header.crs = nil
        let (_, wgs84, _, _) = try Self.roundTrip([Feature(geometry: .point(Self.c(1, 2)))], header: header)
        #expect(wgs84.crs == nil)
    }

    @Test("Features in the tree's order (writtenOrder says which), and the tree answers a box as a scan does")
    func indexedOrder() throws {
        var random = SplitMix64(seed: 46)
        let features = (0..<700).map { n in
            let lon = Double.random(in: -170...170, using: &random)
            let lat = Double.random(in: -80...80, using: &random)
            let geometry: Geometry =
                n % 3 == 0
                ? .point(Self.c(lon, lat))
                : .lineString(Path([Self.c(lon, lat), Self.c(lon + 1.5, lat + 0.5), Self.c(lon + 0.5, lat - 1)]))
            return Feature(geometry: n % 50 == 7 ? nil : geometry, properties: ["n": .number(JSONNumber(n))])
        }
        let (read, _, _, bytes) = try Self.roundTrip(features)
        let writtenOrder = try #require(FileFormat.flatGeobuf.capabilities.writtenOrder)
        let order = writtenOrder(features.map(\.geometry))
        #expect(read.map { $0.properties["n"]?.doubleValue.map { Int($0) } ?? -1 } == order)
        for _ in 0..<20 {
            let west = Double.random(in: -180...150, using: &random)
            let south = Double.random(in: -90...60, using: &random)
            let box = FeatureSelection.Box(west: west, south: south, east: west + 30, north: south + 25)
            var options = ConversionOptions()
            options.selection.boundingBox = box
            let found = try FormatIO.read(bytes: bytes, as: .flatGeobuf, name: "out.fgb", options: options)
            let expected = read.filter { feature in
                guard let bounds = feature.geometry?.bounds else { return false }
                return bounds.west <= box.east && bounds.east >= box.west && bounds.south <= box.north
                    && bounds.north >= box.south
            }
            #expect(found.features.map(\.properties) == expected.map(\.properties))
        }
    }

    @Test("SPATIAL_INDEX=NO: the input's order, no tree, node size 0")
    func withoutIndex() throws {
        var options = ConversionOptions()
        options.formatOptions[FlatGeobufOptions.spatialIndex] = false
        let features = (0..<40).map { n in
            Feature(geometry: .point(Self.c(Double(40 - n), Double(n))), properties: ["n": .number(JSONNumber(n))])
        }
        let (read, _, _, bytes) = try Self.roundTrip(features, options: options)
        #expect(read.map { $0.properties["n"] } == features.map { $0.properties["n"] })
        #expect(try Self.header(of: bytes)?.indexNodeSize == 0)
    }

    /// The header of FlatGeobuf bytes, as the reader decodes it.
    static func header(of bytes: [UInt8]) throws -> FlatGeobufHeader? {
        guard bytes.count > 12 else { return nil }
        let size = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let buffer = FlatBuffer(bytes: Array(bytes[12..<(12 + size)]), base: 12, file: "out.fgb")
        return try FlatGeobufHeader(try FlatBufferTable(root: buffer))
    }
}
