import Foundation
import GeoConvCore
import GeoConvEncodedPolyline
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

@Suite("Encoded polyline codec")
struct EncodedPolylineTests {
    let appendixPath = [
        Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
        Coordinate(latitude: 43.252, longitude: -126.453),
    ]

    @Test("Appendix example at precision 5")
    func precision5() throws {
        #expect(try EncodedPolyline.encode(appendixPath) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == appendixPath)
    }

    @Test("Appendix example at precision 6")
    func precision6() throws {
        let path = [
            Coordinate(latitude: 40.714701, longitude: -73.990171),
            Coordinate(latitude: 40.717571, longitude: -73.991801),
            Coordinate(latitude: 40.715651, longitude: -73.985751),
        ]
        #expect(try EncodedPolyline.encode(path, precision: 6) == "y{_tlAt`_clCkrDzdB~vBcyJ")
        #expect(try EncodedPolyline.decode("y{_tlAt`_clCkrDzdB~vBcyJ", precision: 6) == path)
    }

    @Test("Ties round half away from zero: latitude 0.000025 at precision 5 is E?")
    func ties() throws {
        #expect(try EncodedPolyline.encode([Coordinate(latitude: 0.000025, longitude: 0)]) == "E?")
        #expect(try EncodedPolyline.encode([Coordinate(latitude: 1.5e-05, longitude: 1.5e-05)]) == "CC")
        #expect(try EncodedPolyline.encode([Coordinate(latitude: -1.5e-05, longitude: -1.5e-05)]) == "BB")
    }

    @Test("The Hyde Park paths of the shapes guide make a polygon with two holes inside it")
    func hydePark() throws {
        let outer = try EncodedPolyline.decode(
            #"tpwmEkd|y[QVe@Pk@BsHe@mGc@iNaAKMaBIYIq@qAMo@Eo@@[Fe@DoALu@HUb@c@XUZS^ELGxOhAd@@ZB`@J^BhFRlBN\BZ@`AFrATAJAR?rAE\C~BIpD"#
        )
        let fountain = try EncodedPolyline.decode("tlvmEqq|y[NNCXSJQOB[TI")
        let pool = try EncodedPolyline.decode("bewmEwk|y[Dm@zAPEj@{AO")
        #expect(outer.count == 40)
        let centre = Coordinate(
            latitude: outer.map(\.latitude).reduce(0, +) / Double(outer.count),
            longitude: outer.map(\.longitude).reduce(0, +) / Double(outer.count))
        #expect(abs(centre.latitude - -33.873) < 0.003 && abs(centre.longitude - 151.211) < 0.003)
        #expect(outer.first == Coordinate(latitude: -33.87675, longitude: 151.20982))
        for hole in [fountain, pool] {
            #expect(hole.count >= 4)
            #expect(hole.first == hole.last)
            for vertex in hole { #expect(ringContains(Path(outer), vertex)) }
        }
        #expect(fountain.first == Coordinate(latitude: -33.87099, longitude: 151.21193))
    }

    @Test("Round trip of 100,000 random coordinates", arguments: [5, 6])
    func randomRoundTrip(precision: Int) throws {
        var generator = SplitMix64(seed: UInt64(precision))
        let factor = pow(10, Double(precision))
        var path: [Coordinate] = []
        for _ in 0..<100_000 {
            path.append(
                Coordinate(
                    latitude: Double.random(in: -90...90, using: &generator),
                    longitude: Double.random(in: -180...180, using: &generator)))
        }
        let encoded = try EncodedPolyline.encode(path, precision: precision)
        let decoded = try EncodedPolyline.decode(encoded, precision: precision)
        #expect(decoded.count == path.count)
        var worst = 0.0
        for (a, b) in zip(path, decoded) {
            worst = max(worst, abs(a.latitude - b.latitude), abs(a.longitude - b.longitude))
        }
        #expect(worst <= 0.5 / factor * (1 + 1e-9))
        // Stable: decoding then encoding gives the same string, and the decoded values again.
        #expect(try EncodedPolyline.encode(decoded, precision: precision) == encoded)
        #expect(
            try EncodedPolyline.decode(EncodedPolyline.encode(decoded, precision: precision), precision: precision)
                == decoded)
    }

    @Test("Every supported precision is stable at the extremes", arguments: Array(0...13))
    func extremes(precision: Int) throws {
        let path = [
            Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180),
            Coordinate(latitude: 89.123456789012345, longitude: -179.98765432109876),
        ]
        let encoded = try EncodedPolyline.encode(path, precision: precision)
        let decoded = try EncodedPolyline.decode(encoded, precision: precision)
        #expect(try EncodedPolyline.encode(decoded, precision: precision) == encoded)
        #expect(decoded[0] == Coordinate(latitude: 90, longitude: 180))
    }

    @Test(
        "Invalid input: each class with its byte offset",
        arguments: [
            ("_p~iF~ps|U_ulLnnqC_mqNvxq`", 26, "ends inside a value"),
            ("_ibE_seK_seK", 12, "without its longitude"),
            ("_p~iF~ps|U!ulLnnqC", 10, "character '!' (33)"),
            ("_p~iF\u{7F}", 5, "control byte 127"),
            ("_p~iF ~ps|U", 5, "character ' ' (32)"),
            ("_p~iF~ps|U_u🗑lLnnqC", 12, "non-ASCII byte 0xF0"),
            ("~~~~~~P", 0, "beyond any coordinate difference"),
            ("~~~~~~~~~~~~~~~~~~~~?", 0, "overlong value"),
        ])
    func invalid(encoded: String, offset: Int, message: String) {
        do {
            _ = try EncodedPolyline.decode(encoded)
            Issue.record("\(encoded) decoded")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.location?.byteOffset == offset)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("Unsupported precision and unencodable coordinates are refused")
    func refused() {
        #expect(throws: GeoConvError.self) { try EncodedPolyline.decode("??", precision: 14) }
        #expect(throws: GeoConvError.self) { try EncodedPolyline.encode([Coordinate(latitude: .nan, longitude: 0)]) }
        #expect(throws: GeoConvError.self) { try EncodedPolyline.encode([Coordinate(latitude: 1e300, longitude: 0)]) }
        #expect(throws: GeoConvError.self) {
            try EncodedPolyline.encode([Coordinate(latitude: 0, longitude: .infinity)])
        }
    }
}

@Suite("Encoded polyline conformance (../shared/conformance/polyline)")
struct PolylineConformanceTests {
    static let directory = Fixtures.conformance.appendingPathComponent("polyline")

    static func vectors() throws -> [[String: Any]] {
        let root = try Fixtures.jsonObject(at: directory.appendingPathComponent("polyline_vectors.json"))
        return try #require(root["vectors"] as? [[String: Any]])
    }

    static func coordinates(_ value: Any?) -> [Coordinate] {
        (value as? [[Double]] ?? []).map { Coordinate(latitude: $0[0], longitude: $0[1]) }
    }

    @Test("Every vector behaves as its manifest says")
    func vectors() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 70)
        var checked = 0
        for vector in vectors {
            let id = vector["id"] as? String ?? "?"
            let precision = vector["precision"] as? Int ?? 5
            let direction = vector["direction"] as? String ?? "both"
            let expectsError = vector["expect"] as? String == "error"
            let strictness = vector["strictness"] as? String
            let expected = Self.coordinates(vector["coordinates"])
            var encoded = vector["encoded"] as? String
            if let file = vector["encoded_file"] as? String {
                encoded = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let tolerance = max(0.5 * pow(10, -Double(precision)), 1e-12) * (1 + 1e-9)

            if expectsError {
                if direction == "decode" {
                    #expect(throws: GeoConvError.self, "\(id)") {
                        try EncodedPolyline.decode(encoded ?? "", precision: precision)
                    }
                } else if strictness == "range-check" {
                    // geoconv encodes out-of-range coordinates (as most codecs do) and reports
                    // them as a warning in the CLI; the library flags them through isValidGeographic.
                    #expect(expected.contains { !$0.isValidGeographic }, "\(id)")
                } else {
                    #expect(throws: GeoConvError.self, "\(id)") {
                        try EncodedPolyline.encode(expected, precision: precision)
                    }
                }
                checked += 1
                continue
            }
            if direction == "both" || direction == "encode" {
                #expect(try EncodedPolyline.encode(expected, precision: precision) == encoded, "\(id)")
            }
            if direction == "both" || direction == "decode" {
                let decoded = try EncodedPolyline.decode(encoded ?? "", precision: precision)
                if let count = vector["count"] as? Int {
                    #expect(decoded.count == count, "\(id)")
                    let first = try #require(vector["first"] as? [Double])
                    let last = try #require(vector["last"] as? [Double])
                    #expect(
                        abs(decoded[0].latitude - first[0]) <= tolerance
                            && abs(decoded[0].longitude - first[1]) <= tolerance, "\(id)")
                    let end = try #require(decoded.last)
                    #expect(
                        abs(end.latitude - last[0]) <= tolerance && abs(end.longitude - last[1]) <= tolerance, "\(id)")
                } else {
                    #expect(decoded.count == expected.count, "\(id)")
                    for (a, b) in zip(decoded, expected) {
                        #expect(
                            abs(a.latitude - b.latitude) <= tolerance && abs(a.longitude - b.longitude) <= tolerance,
                            "\(id)")
                    }
                }
            }
            checked += 1
        }
        #expect(checked == vectors.count)
    }
}
