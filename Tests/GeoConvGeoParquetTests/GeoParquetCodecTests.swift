import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvGeoParquet
import GeoConvIO
import GeoConvTestSupport
import Testing

/// GeoParquet through its own reader and writer, with nothing of the pipeline. Conversions,
/// `--jobs`, and the files pyarrow, geopandas and DuckDB read back: `GeoConvTests`
/// (GeoParquet*Tests).
@Suite("GeoParquet reader and writer")
struct GeoParquetCodecTests {
    static func c(_ lon: Double, _ lat: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    /// A polygon with a hole, a line of two parts and a point, with typed values and nulls.
    static let features: [Feature] = {
        let outer: Path = [c(0, 0), c(10, 0), c(10, 10), c(0, 10), c(0, 0)]
        let hole: Path = [c(4, 4), c(4, 6), c(6, 6), c(6, 4), c(4, 4)]
        var lot = Feature(geometry: .polygon(PolygonRings(outer: outer, holes: [hole])), title: "lot")
        lot.properties = ["count": 3, "share": .number(JSONNumber(literal: "0.25")!), "open": true, "kind": "a"]
        var road = Feature(
            geometry: .multiLineString([[c(1, 1), c(2, 2)], [c(3, 3), c(4, 5), c(6, 7)]]), title: "road")
        road.properties = ["count": 12, "share": .null, "open": false, "kind": "b"]
        var stop = Feature(geometry: .point(c(-122.5, 37.75)), title: "stop")
        stop.properties = [
            "count": .null, "share": .number(JSONNumber(literal: "-1.5")!), "open": .null, "kind": .null,
        ]
        return [lot, road, stop]
    }()

    @Test("Written and read back: each feature's geometry ring by ring, its title and its values key by key")
    func roundTrip() throws {
        let (bytes, log) = try FormatIO.write(Self.features, as: .geoParquet)
        #expect(bytes.prefix(4).elementsEqual("PAR1".utf8) && bytes.suffix(4).elementsEqual("PAR1".utf8))
        #expect(log.isEmpty, "\(log.entries.keys)")
        let back = try FormatIO.read(bytes: bytes, as: .geoParquet, name: "out.parquet").features
        #expect(back.count == Self.features.count)
        for (index, (read, written)) in zip(back, Self.features).enumerated() {
            #expect(read.geometry == written.geometry, "feature \(index)")
            #expect(read.title == written.title, "feature \(index)")
            for (key, value) in written.properties {
                #expect(read.properties[key] == value, "feature \(index), \(key)")
            }
        }
        guard case .polygon(let rings)? = back[0].geometry else {
            Issue.record("not a polygon: \(String(describing: back[0].geometry))")
            return
        }
        #expect(rings.holes.count == 1 && rings.holes[0].coordinates[1] == Self.c(4, 6))
    }

    @Test("pyarrow's typed columns read as their values: dates, timestamps, decimals, unsigned, struct fields, lists")
    func pyarrowTypes() throws {
        let path = Fixtures.testdata("geoparquet/pyarrow-types.parquet")
        let (_, features, _) = try FormatIO.read(try ByteReader(.file(path)), as: .geoParquet)
        let first = features[0].properties
        #expect(first["day"] == .string("2024-01-01") && first["utc"] == .string("2024-01-01T12:30:05.123Z"))
        #expect(first["amount"] == .number(JSONNumber(literal: "12.345")!))
        #expect(first["big_unsigned"] == .number(JSONNumber(UInt64.max)))
        #expect(first["address.city"] == .string("Paris") && first["address.zip"] == .number(JSONNumber(75001)))
        #expect(features.map { $0.properties["tags"] } == [.array(["a", "b"]), .array([]), .null])
        #expect(features[0].geometry == .point(Self.c(1, 2)) && features[1].geometry == nil)
    }

    @Test("A truncated file is an error at the byte where its footer should end")
    func truncated() throws {
        let (bytes, _) = try FormatIO.write(Self.features, as: .geoParquet)
        let error = #expect(throws: GeoConvError.self) {
            _ = try FormatIO.read(bytes: Array(bytes.dropLast(3)), as: .geoParquet, name: "cut.parquet")
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.location?.byteOffset == bytes.count - 7)
        #expect(error?.message.contains("PAR1") == true)
    }
}
