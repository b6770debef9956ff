import Foundation
import GeoConvCore
import GeoConvFormatKit
@testable import GeoConvGeoPackage
import GeoConvIO
import GeoConvTestSupport
import Testing

/// GeoPackage read through its own reader: our fixtures (`testdata/geopackage/`, written by
/// GDAL from the GeoJSON and CSV we wrote: scripts/make-geopackage-fixtures.sh). That the
/// reading is GDAL's, feature by feature and key by key, is `GDALDifferentialTests`' check,
/// which reads every `.gpkg` of the corpora with both.
@Suite("GeoPackage reading", .enabled(if: BuiltTraits.geoPackage))
struct GeoPackageTests {
    static func read(
        _ name: String, options: ConversionOptions = ConversionOptions()
    ) throws -> (
        header: DocumentHeader, features: [Feature], log: DiagnosticLog
    ) {
        let read = try FormatIO.read(
            try ByteReader(.file(Fixtures.testdata("geopackage/\(name)"))), as: .geoPackage, options: options)
        return (read.header, read.features, read.diagnostics)
    }

    static func c(_ lon: Double, _ lat: Double, _ z: Double? = nil) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon, altitude: z)
    }

    @Test("Every table in gpkg_contents' order: features with rings and holes, lines with altitudes, attributes")
    func tables() throws {
        let (header, features, log) = try Self.read("places.gpkg")
        #expect(header.crs == nil && header.name == nil)
        #expect(log.entries["geopackage.tables-merged"]?.first.isNote == true)
        let places = try Self.read("places.gpkg", options: Self.table("places")).features
        let trail = try Self.read("places.gpkg", options: Self.table("trail")).features
        let visits = try Self.read("places.gpkg", options: Self.table("visits")).features
        #expect(features.count == places.count + trail.count + visits.count)
        #expect(features.map(\.properties) == (places + trail + visits).map(\.properties))
        // The feature without geometry is kept (GDAL's GeoPackage driver writes it).
        #expect(places.contains { $0.geometry == nil })
        let pond = try #require(places.first { $0.title == "Lot with a pond" })
        guard case .polygon(let rings)? = pond.geometry else {
            Issue.record("the lot is not a polygon")
            return
        }
        #expect(rings.holes.count == 1)
        #expect(trail.allSatisfy { $0.geometry?.hasAltitude == true })
        #expect(visits.allSatisfy { $0.geometry == nil } && visits.count == 3)
        #expect(visits.map { $0.properties["visitor"] } == [.string("Ana"), .string("Ben"), .string("Chloé")])
        #expect(visits[1].properties["count"] == .null && visits[2].properties["count"] == .number(JSONNumber(12)))
        #expect(visits[0].properties["day"] == .string("2026-11-02"))
        // The fid is the id, in the table's order.
        #expect(visits.map(\.id) == [.number(JSONNumber(1)), .number(JSONNumber(2)), .number(JSONNumber(3))])
    }

    @Test("Tables in two CRSs are refused together, each read alone with its CRS")
    func twoCRSs() throws {
        let error = #expect(throws: GeoConvError.self) { _ = try Self.read("two-crs.gpkg") }
        #expect(error?.message.contains("different CRSs") == true && error?.hint?.contains("TABLE=") == true)
        let utm = try Self.read("two-crs.gpkg", options: Self.table("utm"))
        #expect(utm.header.crs == "EPSG:25832" && utm.header.name == "utm")
        let wgs84 = try Self.read("two-crs.gpkg", options: Self.table("wgs84"))
        #expect(wgs84.header.crs == nil && wgs84.features.count == utm.features.count)
        let missing = #expect(throws: GeoConvError.self) { _ = try Self.read("two-crs.gpkg", options: Self.table("x")) }
        #expect(missing?.hint?.contains("wgs84, utm") == true)
    }

    @Test("Damaged files: not SQLite, and a geometry blob that is not one, each located")
    func damaged() throws {
        #expect(
            FileFormat.geoPackage.sniff(
                Array(
                    try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("geopackage/places.gpkg"))).prefix(100))
            ))
        #expect(!FileFormat.geoPackage.sniff(Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0, count: 80)))
        let truncated = Array(
            try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("geopackage/places.gpkg"))).prefix(3000))
        let error = #expect(throws: GeoConvError.self) {
            _ = try FormatIO.read(bytes: truncated, as: .geoPackage, name: "cut.gpkg")
        }
        #expect(error?.location?.file == "cut.gpkg")
        #if GeoPackage
        let place = SourceLocation(file: "x.gpkg", pointer: "/t/1")
        let blob = #expect(throws: GeoConvError.self) {
            _ = try GeoPackageGeometry.read([0x47, 0x50, 0, 0x01, 0, 0, 0, 0, 9, 9], at: place)
        }
        #expect(blob?.message.contains("WKB") == true && blob?.location?.pointer == "/t/1")
        let plain = #expect(throws: GeoConvError.self) {
            _ = try GeoPackageGeometry.read([1, 1, 0, 0, 0, 0, 0, 0, 0], at: place)
        }
        #expect(plain?.message.contains("\"GP\"") == true)
        #endif
    }

    static func table(_ name: String) -> ConversionOptions {
        var options = ConversionOptions()
        options.formatOptions[GeoPackageOptions.table] = name
        return options
    }
}
