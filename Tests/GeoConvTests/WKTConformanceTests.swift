import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@Suite("WKT conformance (../shared/conformance/wkt)")
struct WKTConformanceTests {
    struct Vector: Sendable, CustomStringConvertible {
        var id: String
        var wkt: String
        var expect: String
        var type: String?
        var dims: String?
        var geojson: String?
        var description: String { id }
    }

    static let vectors: [Vector] = {
        guard let data = try? Data(contentsOf: Fixtures.conformance.appendingPathComponent("wkt/wkt_vectors.json")),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["vectors"] as? [[String: Any]]
        else { return [] }
        return list.map { item in
            let geojson = (item["geojson"]).flatMap { try? JSONSerialization.data(withJSONObject: $0) }.map {
                String(decoding: $0, as: UTF8.self)
            }
            return Vector(
                id: item["id"] as? String ?? "?", wkt: item["wkt"] as? String ?? "",
                expect: item["expect"] as? String ?? "",
                type: item["type"] as? String, dims: item["dims"] as? String, geojson: geojson)
        }
    }()

    @Test("286 vectors")
    func count() { #expect(Self.vectors.count == 286) }

    @Test("Each vector behaves as stated", arguments: vectors)
    func vector(_ v: Vector) throws {
        let parsed = Result { () throws(GeoConvError) -> WKTGeometry in try WKTParser.parse(v.wkt) }
        switch v.expect {
        case "ok":
            let geometry = try parsed.get()
            #expect(geometry.geometry.kind.rawValue == v.type, "\(v.wkt)")
            #expect(geometry.dimensions.rawValue == v.dims, "\(v.wkt)")
            let expected = try #require(v.geojson)
            let expectedGeometry = try FormatIO.read(expected, as: .geoJSON).features.first?.geometry
            #expect(
                sameShape(geometry.geometry, expectedGeometry)
                    || (geometry.geometry.isEmpty && expectedGeometry?.isEmpty == true),
                "\(v.wkt): \(geometry.geometry) vs \(String(describing: expectedGeometry))")
        case "error":
            #expect(throws: GeoConvError.self, "\(v.wkt)") { _ = try parsed.get() }
        default:
            // "either" and "unsupported": a clean result either way (docs/formats/wkt.md says which).
            if case .failure(let error) = parsed { #expect(error.location?.byteOffset != nil, "\(v.wkt)") }
        }
    }
}
