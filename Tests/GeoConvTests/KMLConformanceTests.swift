import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

@Suite("KML conformance (../shared/conformance/kml)")
struct KMLConformanceTests {
    struct Entry: Sendable, CustomStringConvertible {
        var file: String
        var gdalStatus: String
        var gdalFeatures: Int?
        var description: String { file }
    }

    static let directory = Fixtures.conformance.appendingPathComponent("kml")

    static let entries: [Entry] = {
        Fixtures.conformanceManifest("kml").compactMap { item in
            guard let file = item["file"] as? String else { return nil }
            let gdal = item["gdal_reference"] as? [String: Any] ?? [:]
            return Entry(
                file: file, gdalStatus: gdal["status"] as? String ?? "?", gdalFeatures: gdal["features"] as? Int)
        }
    }()

    /// Files geoconv refuses, and why (GDAL cannot read any of them either).
    static let refused: [String: String] = [
        "gdal/truncated.kml": "not well-formed XML (truncated)",
        "libkml/kml/billion.kml": "declares XML entities (billion laughs)",
        "libkml/kmz/nokml.kmz": "the archive holds no .kml file",
    ]

    @Test("The manifest lists 139 files")
    func manifest() { #expect(Self.entries.count == 139) }

    @Test(
        "Every file converts (carrying at least GDAL's features) or is refused for its stated reason",
        arguments: entries)
    func file(entry: Entry) throws {
        let path = Self.directory.appendingPathComponent(entry.file).path
        do throws(GeoConvError) {
            let report = try Converter().convert(
                .file(path), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
            #expect(
                Self.refused[entry.file] == nil, "\(entry.file) should be refused: \(Self.refused[entry.file] ?? "")")
            if entry.gdalStatus == "ok", let expected = entry.gdalFeatures {
                #expect(
                    report.statistics.featuresWritten >= expected,
                    "\(entry.file): \(report.statistics.featuresWritten) < GDAL's \(expected)")
            }
        } catch {
            #expect(Self.refused[entry.file] != nil, "\(entry.file) refused: \(error)")
            #expect(entry.gdalStatus == "error", "\(entry.file): GDAL reads it, geoconv refuses: \(error)")
        }
    }

    static let togeojsonFiles: [String] = {
        let expected = directory.appendingPathComponent("togeojson-expected")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: expected.path)) ?? []
        return names.filter { $0.hasSuffix(".geojson") }.map { String($0.dropLast(8)) }.sorted()
    }()

    /// Known, documented differences from togeojson (docs/formats/kml.md).
    static let knownDifferences: [String: Set<String>] = [
        // KML colours must be aabbggrr; togeojson passes "ff0" through, geoconv ignores it.
        "literal_color": ["stroke", "fill", "fill-opacity"], "noname": ["stroke", "fill", "fill-opacity"],
        "nogeomplacemark": ["stroke", "fill", "fill-opacity"],
        // <outline>0</outline> / <fill>0</fill> without a colour: geoconv writes white at opacity 0.
        "inline_style": ["stroke-opacity"], "opacity_override": ["stroke"], "schema": ["fill", "geometry"],
        // An empty <coordinates/> is an empty geometry in geoconv, null in togeojson; Points
        // with empty coordinates likewise.
        "selfclosing": ["geometry"], "addresses": ["geometry"],
        // GroundOverlay: geoconv rotates the LatLonBox; gx:LatLonQuad is not read.
        "ground_overlay": ["geometry"], "ground_overlay_quad": ["geometry"],
        // NetworkLink Regions are not turned into polygons.
        "networklink": ["geometry"],
        // A MultiGeometry holding one LineString per sibling: geoconv keeps a MultiLineString.
        "multigeometry_sibling": ["geometry"],
    ]

    static func normalized(_ geometry: Any?) -> Any? {
        guard let g = geometry as? [String: Any], let type = g["type"] as? String else { return nil }
        if type == "GeometryCollection", let members = g["geometries"] as? [Any] {
            let parts = members.compactMap { normalized($0) as? [String: Any] }
            let kinds = Set(parts.compactMap { $0["type"] as? String })
            if kinds.count == 1, let kind = kinds.first, ["Point", "LineString", "Polygon"].contains(kind) {
                return ["type": "Multi" + kind, "coordinates": parts.compactMap { $0["coordinates"] }]
            }
            return ["type": type, "geometries": parts]
        }
        return ["type": type, "coordinates": g["coordinates"] ?? []]
    }

    static func number(_ value: Any?) -> Double? {
        if let n = value as? Int { return Double(n) }
        if let n = value as? Double { return n }
        if let n = value as? NSNumber { return n.doubleValue }
        return nil
    }

    static func close(_ a: Any?, _ b: Any?) -> Bool {
        if let x = number(a), let y = number(b) { return abs(x - y) < 1e-9 }
        switch (a, b) {
        case (nil, nil): return true
        case (let x as [Any], let y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { close($0, $1) }
        case (let x as [String: Any], let y as [String: Any]):
            return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { close(x[$0], y[$0]) }
        case (let x as String, let y as String): return x == y
        default: return false
        }
    }

    /// Rings compared as sets of positions (orientation differs: geoconv writes RFC 7946 order).
    static func sameGeometry(_ a: Any?, _ b: Any?) -> Bool {
        if close(a, b) { return true }
        func flatten(_ value: Any?) -> [[Double]] {
            if let position = value as? [NSNumber], position.count >= 2, !(value is [[Any]]) {
                return [position.map(\.doubleValue)]
            }
            if let list = value as? [Any] { return list.flatMap(flatten) }
            if let g = value as? [String: Any] { return flatten(g["coordinates"]) + flatten(g["geometries"]) }
            return []
        }
        let x = flatten(a).map { $0.map { ($0 * 1e9).rounded() } }
        let y = flatten(b).map { $0.map { ($0 * 1e9).rounded() } }
        return (a as? [String: Any])?["type"] as? String == (b as? [String: Any])?["type"] as? String
            && x.count == y.count && Set(x.map { $0.description }) == Set(y.map { $0.description })
    }

    @Test("Geometry, name, description and style properties match togeojson's output", arguments: togeojsonFiles)
    func togeojson(name: String) throws {
        var kml = Self.directory.appendingPathComponent("togeojson/\(name).kml").path
        if !FileManager.default.fileExists(atPath: kml) { kml = kml.replacingOccurrences(of: ".kml", with: ".kmz") }
        let report = try Converter().convert(
            .file(kml), to: .memory, options: ConversionOptions(outputFormat: .geoJSON))
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(report.output)) as? [String: Any])
        let theirs = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: Self.directory.appendingPathComponent(
                        "togeojson-expected/\(name).geojson"))) as? [String: Any])
        let a = ours["features"] as? [[String: Any]] ?? []
        let b = theirs["features"] as? [[String: Any]] ?? []
        #expect(a.count == b.count, "\(name): \(a.count) features, togeojson \(b.count)")
        let allowed = Self.knownDifferences[name] ?? []
        for (x, y) in zip(a, b) {
            if !allowed.contains("geometry") {
                #expect(
                    Self.sameGeometry(Self.normalized(x["geometry"]), Self.normalized(y["geometry"])),
                    "\(name): geometry")
            }
            let p = x["properties"] as? [String: Any] ?? [:]
            let q = y["properties"] as? [String: Any] ?? [:]
            for key in ["name", "description"] {
                // togeojson keeps some whitespace around CDATA and drops other (an xmldom quirk);
                // geoconv keeps all character data. Compare the text itself.
                var expected = q[key]
                if let html = expected as? [String: Any] { expected = html["value"] }
                let mine = (p[key] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
                let theirsText = (expected as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
                // (An empty <description> is "" as GDAL reads it; togeojson leaves it out.)
                let emptyDescription =
                    key == "description" && mine == "" && theirsText == nil
                    && ["multitrack", "non_gx_multitrack"].contains(name)
                #expect(
                    mine == theirsText || (mine == nil && theirsText == "") || emptyDescription,
                    "\(name): \(key) \(String(describing: mine)) vs \(String(describing: theirsText))")
            }
            for key in ["stroke", "stroke-width", "stroke-opacity", "fill", "fill-opacity", "icon", "icon-scale"]
            where !allowed.contains(key) {
                var mine = p[key]
                var theirsValue = q[key]
                if key.hasSuffix("-opacity") {
                    let color = String(key.dropLast(8))
                    if mine == nil, p[color] != nil { mine = 1 }
                    if theirsValue == nil, q[color] != nil { theirsValue = 1 }
                }
                #expect(
                    Self.close(mine, theirsValue),
                    "\(name): \(key) \(String(describing: mine)) vs \(String(describing: theirsValue))")
            }
        }
    }
}
