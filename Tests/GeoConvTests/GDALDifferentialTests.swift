import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// GDAL's reading of a file (`scripts/gdal-reading.py`, through python3-gdal).
struct GDALFileReading {
    /// The driver GDAL opened it with.
    var driver: String
    /// The features, layer by layer: the layer's name, and each feature.
    var layers: [(name: String, features: [ComparedFeature])]

    /// `/usr/bin/python3` with GDAL's bindings, where installed.
    static let python: String? = {
        let path = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: path),
            (try? Tools.output(of: path, ["-c", "import osgeo.ogr"])) != nil
        else { return nil }
        return path
    }()

    /// GDAL's readings of `paths`; a file GDAL does not open is left out.
    static func read(_ paths: [String]) throws -> [String: GDALFileReading] {
        let python = try #require(python)
        let script = Fixtures.root.appendingPathComponent("scripts/gdal-reading.py").path
        let data = try Tools.output(of: python, [script] + paths)
        guard case .object(let files)? = JSONText.parse(String(decoding: data, as: UTF8.self)) else {
            throw GeoConvError(.invalidInput, "gdal-reading.py printed no JSON object")
        }
        var result: [String: GDALFileReading] = [:]
        for (path, value) in files {
            guard case .object(let file) = value, case .string(let driver)? = file["driver"],
                case .array(let layers)? = file["layers"]
            else { continue }
            var reading = GDALFileReading(driver: driver, layers: [])
            for layer in layers {
                guard case .object(let object) = layer, case .array(let features)? = object["features"] else {
                    continue
                }
                var compared: [ComparedFeature] = []
                for feature in features {
                    guard case .object(let f) = feature else { continue }
                    var properties: [(key: String, value: JSONValue)] = []
                    if case .array(let fields)? = f["fields"] {
                        for field in fields {
                            if case .array(let pair) = field, pair.count == 2, case .string(let key) = pair[0] {
                                properties.append((key, pair[1]))
                            }
                        }
                    }
                    var geometry: Geometry?
                    if case .string(let hex)? = f["geometry"] {
                        let bytes = Array(hex.utf8)
                        // GDAL writes an empty point as NaN ordinates, which geoconv's WKB reader refuses.
                        geometry = try? bytes.withUnsafeBufferPointer { buffer throws(GeoConvError) in
                            try WKB.read(hex: buffer).0.geometry
                        }
                    }
                    compared.append(ComparedFeature(properties: properties, geometry: geometry))
                }
                reading.layers.append((object["name"]?.stringValue ?? "", compared))
            }
            result[path] = reading
        }
        return result
    }
}

/// The differential check (issue 43, item 3): every corpus file GDAL reads is read by
/// geoconv too and compared with GDAL's reading feature by feature — the count; the geometry
/// part by part, ring by ring in order (1e-7° apart at most; a ring's start and direction
/// free), vertex by vertex; every GDAL field under the same key with an equal value. Each
/// difference is one GDAL and geoconv are known to have (`testdata/differential/known.tsv`,
/// explained in `docs/differential.md`); a new one fails.
@Suite(
    "Differential check against GDAL",
    .enabled(if: GDALFileReading.python != nil && BuiltTraits.proj && BuiltTraits.shapefile))
struct GDALDifferentialTests {
    /// Corpus files of the formats both read.
    static let files: [(path: String, shown: String)] = {
        let extensions: Set<String> = [
            "kml", "kmz", "gpx", "geojson", "json", "geojsonl", "geojsons", "csv", "tsv", "shp", "fgb", "gpkg",
        ]
        var result: [(String, String)] = []
        let roots: [(URL, String)] = [
            (Fixtures.testdata, "testdata"), (Fixtures.conformance, "shared/conformance"),
            (Fixtures.shared.appendingPathComponent("realworld"), "shared/realworld"),
            (Fixtures.shared.appendingPathComponent("realworld-more"), "shared/realworld-more"),
        ]
        for (root, shown) in roots {
            let all = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            for relative in all.sorted() where extensions.contains((relative as NSString).pathExtension.lowercased()) {
                // (This project's own tables, not geodata: reference values, expected outcomes.)
                if relative.hasSuffix("gdal_reference.json") || relative.contains("manifest") { continue }
                if shown == "testdata",
                    relative.hasPrefix("geodesic/") || relative.hasPrefix("conservation/")
                        || relative.hasPrefix("differential/") || relative.hasPrefix("roundtrip/")
                        || relative == "invalid/expected.tsv"
                {
                    continue
                }
                result.append((root.appendingPathComponent(relative).path, shown + "/" + relative))
            }
        }
        return result
    }()

    /// How geoconv's reading is compared with GDAL's.
    static let comparison = StructuralComparison(
        tolerance: 1e-7, ringsMayRestart: true, propertyOrderMatters: false,
        allowsAddedProperties: true, nullMatchesAbsent: true)

    /// Documented correspondences (docs/differential.md): GDAL's field (by driver) and the
    /// key geoconv holds the same value under. `@id` is the feature's id, `@altitude` a
    /// point's altitude.
    static let correspondences: [String: [String: String]] = [
        "GeoJSON": ["id": "@id"], "GeoJSONSeq": ["id": "@id"],
        "LIBKML": ["Name": "name", "snippet": "Snippet"], "KML": ["Name": "name", "Description": "description"],
        "GPX": ["desc": "description", "sym": "marker-symbol", "time": "timestamp", "ele": "@altitude"],
    ]

    /// geoconv's reading of a feature as compared with a GDAL driver's.
    static func ours(_ feature: Feature, driver: String) -> ComparedFeature {
        var compared = ComparedFeature(feature)
        if let id = feature.id {
            switch id {
            case .string(let text): compared.properties.append(("@id", .string(text)))
            case .number(let number): compared.properties.append(("@id", .number(number)))
            }
        }
        if driver == "GPX" {
            // GDAL's GPX layers are 2D: a waypoint's `ele` is a field, a track's altitudes are
            // in its track_points layer.
            if case .point(let c)? = feature.geometry, let altitude = c.altitude, let number = JSONNumber(altitude) {
                compared.properties.append(("@altitude", .number(number)))
            }
            compared.geometry = feature.geometry?.mapCoordinates {
                Coordinate(latitude: $0.latitude, longitude: $0.longitude)
            }
        }
        return compared
    }

    /// GDAL's reading with its fields under geoconv's keys where a correspondence says so, and
    /// date-times that name the same instant as geoconv's text given that text.
    static func theirs(_ feature: ComparedFeature, driver: String, ours: ComparedFeature?) -> ComparedFeature {
        var result = feature
        let renames = correspondences[driver] ?? [:]
        // (A field named as a correspondence's source that geoconv holds under that very key —
        // a property `id`, not the feature's id — is that property.)
        let oursKeys = Set(ours?.properties.map(\.key) ?? [])
        result.properties = feature.properties.map { property in
            guard let renamed = renames[property.key], !oursKeys.contains(property.key) || oursKeys.contains(renamed)
            else { return property }
            return (key: renamed, value: property.value)
        }
        guard let ours else { return result }
        // geoconv's own altitude column (after longitude and latitude): GDAL reads it as a
        // field, geoconv as the point's altitude.
        if driver == "CSV", case .point(let c)? = ours.geometry, let altitude = c.altitude,
            case .point(let g)? = result.geometry, g.altitude == nil,
            let index = result.properties.firstIndex(where: { $0.key == "altitude" }),
            result.properties[index].value.doubleValue == altitude
        {
            result.properties.remove(at: index)
            result.geometry = .point(Coordinate(latitude: g.latitude, longitude: g.longitude, altitude: altitude))
        }
        for index in result.properties.indices {
            guard case .string(let text) = result.properties[index].value,
                case .string(let our)? = ours.properties.first(where: { $0.key == result.properties[index].key })?.value,
                text != our, let a = Instant(text), let b = Instant(our), a == b
            else { continue }
            result.properties[index].value = .string(our)
        }
        return result
    }

    /// The differences of one file, as classes (the category and, for properties, the key)
    /// with their counts.
    static func differences(_ path: String, gdal: GDALFileReading) -> [String: Int] {
        var classes: [String: Int] = [:]
        let document: OverlayDocument
        do {
            document = try OverlayDocument.load(.file(path), reprojectingToWGS84: true)
        } catch {
            return ["file.refused": 1]
        }
        let ours = document.features.map { Self.ours($0, driver: gdal.driver) }
        // GPX's route_points and track_points layers repeat the lines' points.
        let layers =
            gdal.driver == "GPX"
            ? gdal.layers.filter { ["waypoints", "routes", "tracks"].contains($0.name) } : gdal.layers
        let theirs = layers.flatMap(\.features)
        if ours.count != theirs.count { classes["feature.count", default: 0] += 1 }
        var pairs: [(ComparedFeature, ComparedFeature?)]
        if layers.count > 1 || ["LIBKML", "KML", "GPX"].contains(gdal.driver) {
            // Layer by layer (KML folder by folder, GPX kind by kind): matched by geometry,
            // altitudes aside, in order.
            func flat(_ geometry: Geometry?) -> ComparedFeature {
                ComparedFeature(
                    properties: [],
                    geometry: geometry?.mapCoordinates { Coordinate(latitude: $0.latitude, longitude: $0.longitude) })
            }
            let flatOurs = ours.map { flat($0.geometry) }
            var used = Set<Int>()
            pairs = theirs.map { feature in
                let flatTheirs = flat(feature.geometry)
                let index = ours.indices.first {
                    !used.contains($0)
                        && comparison.differences(
                            expected: flatTheirs, got: flatOurs[$0], feature: 0
                        ).isEmpty
                }
                if let index { used.insert(index) }
                return (feature, index.map { ours[$0] })
            }
            // What no geometry matched is paired in order with what is left, geometries only,
            // so that the comparison says how the geometries differ.
            var left = ours.indices.filter { !used.contains($0) }.makeIterator()
            pairs = pairs.map { pair in
                guard pair.1 == nil else { return pair }
                return (
                    ComparedFeature(properties: [], geometry: pair.0.geometry),
                    left.next().map { ComparedFeature(properties: [], geometry: ours[$0].geometry) }
                )
            }
        } else {
            pairs = theirs.enumerated().map { ($0.element, $0.offset < ours.count ? ours[$0.offset] : nil) }
        }
        pairs = pairs.map { (Self.theirs($0.0, driver: gdal.driver, ours: $0.1), $0.1) }
        for (index, (expected, got)) in pairs.enumerated() {
            guard let got else {
                classes["feature.unmatched", default: 0] += 1
                continue
            }
            for difference in comparison.differences(expected: expected, got: got, feature: index) {
                if let show = ProcessInfo.processInfo.environment["GEOCONV_DIFFERENTIAL_SHOW"], path.contains(show) {
                    print("\(path): \(difference)")
                }
                let key =
                    difference.category.hasPrefix("property.")
                    ? difference.category + " " + difference.place : difference.category
                classes[key, default: 0] += 1
            }
        }
        return classes
    }

    /// A row of `testdata/differential/rules.tsv`: a known difference and its reason.
    struct Rule {
        var reason: String
        var driver: String
        var difference: Regex<AnyRegexOutput>
        var file: Regex<AnyRegexOutput>?
        var line: Int

        /// Whether the rule names difference class `key` of GDAL's `driver` in the corpus file `shown`.
        func names(_ key: String, driver: String, in shown: String) -> Bool {
            self.driver == driver && (try? difference.wholeMatch(in: key)) != nil
                && file.map { (try? $0.firstMatch(in: shown)) != nil } ?? true
        }
    }

    static func rules(_ file: String = "differential/rules.tsv") throws -> [Rule] {
        let text = try String(contentsOfFile: Fixtures.testdata(file), encoding: .utf8)
        var rules: [Rule] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.hasPrefix("#"), !line.isEmpty else { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3 else {
                throw GeoConvError(.invalidInput, "rules.tsv:\(index + 1): fewer than 3 columns")
            }
            rules.append(
                Rule(
                    reason: columns[0], driver: columns[1], difference: try Regex(columns[2]),
                    file: columns.count > 3 && !columns[3].isEmpty ? try Regex(columns[3]) : nil, line: index + 1))
        }
        return rules
    }

    @Test("Every corpus file GDAL reads: geoconv's reading equal to GDAL's, or a known, documented difference")
    func corpus() throws {
        let readings = try GDALFileReading.read(Self.files.map(\.path))
        let rules = try Self.rules()
        let documented = try String(
            contentsOfFile: Fixtures.root.appendingPathComponent("docs/differential.md").path, encoding: .utf8)
        for reason in Set(rules.map(\.reason)) {
            #expect(
                documented.contains("### `\(reason)`"),
                "rules.tsv names the reason \(reason), which docs/differential.md does not explain")
        }
        var report: [String] = []
        var compared = 0
        var features = 0
        var equalFiles = 0
        var byReason: [String: (rows: Int, count: Int)] = [:]
        var used = Set<Int>()
        for (path, shown) in Self.files {
            guard let gdal = readings[path] else { continue }
            compared += 1
            features += gdal.layers.reduce(0) { $0 + $1.features.count }
            let found = Self.differences(path, gdal: gdal)
            if found.isEmpty { equalFiles += 1 }
            for (key, count) in found.sorted(by: { $0.key < $1.key }) {
                let rule = rules.first { $0.names(key, driver: gdal.driver, in: shown) }
                report.append("\(shown)\t\(gdal.driver)\t\(key)\t\(count)\t\(rule?.reason ?? "UNDOCUMENTED")")
                guard let rule else {
                    Issue.record(
                        "\(shown): \(count)× \(key) (GDAL's \(gdal.driver)): a difference from GDAL no rule of testdata/differential/rules.tsv names"
                    )
                    continue
                }
                used.insert(rule.line)
                byReason[rule.reason, default: (0, 0)].rows += 1
                byReason[rule.reason, default: (0, 0)].count += count
            }
        }
        for rule in rules where !used.contains(rule.line) {
            Issue.record("rules.tsv:\(rule.line) (\(rule.reason)) matches no difference any more: remove it")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-differential.tsv")
        try report.joined(separator: "\n").write(to: out, atomically: true, encoding: .utf8)
        let summary = byReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.rows) rows/\($0.value.count)" }
        print(
            "differential: \(compared) files, \(features) GDAL features, \(equalFiles) files equal; "
                + "documented: \(summary.joined(separator: ", ")); rows → \(out.path)")
    }
}

/// A date-time in ISO 8601 (`2015-07-31T17:00:00.000Z`, `2015-07-31 17:00:00+02:00`), as the
/// instant it names, to compare GDAL's date fields with the text geoconv keeps.
struct Instant: Equatable {
    var seconds: Double

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        // A time alone (`14:14:34.000`) is a time of 1 January 1970.
        if bytes.count >= 8, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
            let alone = Instant("1970-01-01T" + text)
        {
            self = alone
            return
        }
        // The date (`-` or `/` between its parts), then an optional time.
        guard bytes.count >= 10, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            bytes[4] == bytes[7], bytes[4] == UInt8(ascii: "-") || bytes[4] == UInt8(ascii: "/")
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        let zoneAfterDate =
            bytes.count > 10 && [UInt8(ascii: "Z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[10])
        if bytes.count > 10, !zoneAfterDate {
            guard bytes.count >= 19, let h = number(11..<13), let m = number(14..<16), let s = number(17..<19),
                bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ")
            else { return nil }
            (hour, minute, second) = (h, m, s)
        }
        var index = zoneAfterDate ? 10 : min(19, bytes.count)
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < bytes.count {
            if bytes[index] == UInt8(ascii: "Z"), index + 1 == bytes.count {
                offset = 0
            } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
                let h = number((index + 1)..<(index + 3))
            {
                let m = bytes.count >= index + 6 ? number((index + 4)..<(index + 6)) ?? 0 : 0
                offset = (h * 60 + m) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        // Days from the civil date (proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy
        seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset * 60) + fraction
    }
}
