import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvProjection
import GeoConvTestSupport
import Testing

/// WGS84 and Web Mercator without PROJ (`NativeCRS`): what every build has, held to PROJ
/// where the build has it too.
@Suite("CRSs handled without PROJ (WGS84, Web Mercator)")
struct NativeCRSTests {
    static let wgs84Spellings = [
        "EPSG:4326", "epsg:4326", "OGC:CRS84", "CRS84", "urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:OGC::CRS84",
        "urn:ogc:def:crs:EPSG::4326", "urn:ogc:def:crs:EPSG:6.6:4326", "http://www.opengis.net/def/crs/OGC/1.3/CRS84",
        "http://www.opengis.net/def/crs/EPSG/0/4326", "http://www.opengis.net/gml/srs/epsg.xml#4326",
    ]
    static let mercatorSpellings = [
        "EPSG:3857", "EPSG:900913", "EPSG:3785", "EPSG:102100", "ESRI:102100", "urn:ogc:def:crs:EPSG::3857",
        "http://www.opengis.net/def/crs/EPSG/0/3857",
    ]

    @Test("Every spelling of WGS84 and Web Mercator is recognised; other CRSs are not")
    func spellings() {
        for text in Self.wgs84Spellings { #expect(NativeCRS(text)?.isGeographic == true, "\(text)") }
        for text in Self.mercatorSpellings { #expect(NativeCRS(text) == .webMercator, "\(text)") }
        for text in ["EPSG:2154", "EPSG:32633", "+proj=utm +zone=33", "EPSG:43260", "urn:ogc:def:crs:EPSG::4258", ""] {
            #expect(NativeCRS(text) == nil, "\(text)")
            #expect(!WGS84Names.contains(text), "\(text)")
        }
        // The pipeline's "is this WGS84?" reads names the same way (CRSNames), plus "WGS84" and no CRS at all.
        for text in Self.wgs84Spellings + ["WGS84", "wgs 84", "urn:ogc:def:crs:EPSG:: 4326"] {
            #expect(WGS84Names.contains(text), "\(text)")
        }
        #expect(WGS84Names.contains(nil))
        for text in Self.mercatorSpellings { #expect(!WGS84Names.contains(text), "\(text)") }
    }

    @Test("Web Mercator both ways: the map's corners, a round trip, and no pole")
    func mercator() throws {
        let corner = try #require(
            NativeCRS.transform(
                Coordinate(latitude: 85.051_128_779_806_59, longitude: 180), from: .wgs84(name: "WGS 84"),
                to: .webMercator))
        #expect(abs(corner.longitude - 20_037_508.342_789_244) < 1e-6)
        #expect(abs(corner.latitude - 20_037_508.342_789_244) < 1e-6)
        let back = try #require(
            NativeCRS.transform(
                Coordinate(latitude: 6_894_699.801, longitude: -8_238_310.24, altitude: 12), from: .webMercator,
                to: .wgs84(name: "WGS 84")))
        #expect(
            abs(back.longitude - -74.006_000_039_103_6) < 1e-9 && abs(back.latitude - 52.519_999_998_456) < 1e-9
                && back.altitude == 12, "\(back)")
        let again = try #require(NativeCRS.transform(back, from: .wgs84(name: "WGS 84"), to: .webMercator))
        #expect(abs(again.longitude - -8_238_310.24) < 1e-7 && abs(again.latitude - 6_894_699.801) < 1e-7)
        #expect(
            NativeCRS.transform(Coordinate(latitude: 90, longitude: 0), from: .wgs84(name: "WGS 84"), to: .webMercator)
                == nil)
    }

    #if PROJ
    @Test("The same as PROJ within 1e-9° and 1e-6 m: 20,000 points, every spelling, names and areas of use")
    func sameAsPROJ() throws {
        var random = SplitMix64(seed: 3857)
        var points = (0..<20_000).map { _ in
            Coordinate(
                latitude: Double.random(in: -85...85, using: &random),
                longitude: Double.random(in: -180...180, using: &random))
        }
        points += [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 85.05, longitude: 179.999),
            Coordinate(latitude: -85.05, longitude: -180),
        ]
        for text in Self.wgs84Spellings + Self.mercatorSpellings {
            let native = try #require(NativeCRS(text))
            // PROJ does not read GML's old ".../epsg.xml#4326" URL; geoconv does.
            guard let proj = try? Reprojection(from: text) else {
                #expect(text.hasPrefix("http://www.opengis.net/gml/srs/epsg.xml#"), "PROJ refused \(text)")
                continue
            }
            #expect(
                proj.sourceName == native.name || native == .webMercator, "\(text): PROJ names it \(proj.sourceName)")
            #expect(proj.sourceIsGeographic == native.isGeographic, "\(text)")
            // The source in its own units: degrees, or Web Mercator metres.
            var input = points
            if native == .webMercator {
                input = points.compactMap { NativeCRS.transform($0, from: .wgs84(name: ""), to: .webMercator) }
            }
            var through = input
            try proj.transform(&through)
            var worst = 0.0
            for (original, projected) in zip(input, through) {
                let ours = try #require(NativeCRS.transform(original, from: native, to: .wgs84(name: "")))
                worst = max(worst, abs(ours.latitude - projected.latitude), abs(ours.longitude - projected.longitude))
            }
            #expect(worst < 1e-9, "\(text): worst difference \(worst)°")
            // And the other way, to Web Mercator, in metres.
            if native.isGeographic {
                let toMercator = try Reprojection(from: text, to: "EPSG:3857")
                var metres = points
                try toMercator.transform(&metres)
                var worstMetres = 0.0
                for (original, projected) in zip(points, metres) {
                    let ours = try #require(NativeCRS.transform(original, from: native, to: .webMercator))
                    worstMetres = max(
                        worstMetres, abs(ours.latitude - projected.latitude), abs(ours.longitude - projected.longitude))
                }
                #expect(worstMetres < 1e-6, "\(text) → EPSG:3857: worst difference \(worstMetres) m")
            }
        }
    }
    #else
    @Test("Without the PROJ trait, another CRS is refused with its name and the trait's")
    func refusedWithoutPROJ() {
        #expect(PROJLibrary.version == nil)
        do {
            _ = try Reprojection(from: "EPSG:2154")
            Issue.record("EPSG:2154 was accepted without PROJ")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message.contains("EPSG:2154") && error.message.contains("PROJ trait"))
        }
    }
    #endif
}
