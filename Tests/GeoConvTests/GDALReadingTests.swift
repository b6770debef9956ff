import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// GDAL's tools, where installed.
enum GDAL {
    static let ogrinfo: String? = ["/usr/bin/ogrinfo", "/usr/local/bin/ogrinfo", "/opt/homebrew/bin/ogrinfo"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// geoconv reads at least what GDAL reads, on the real files people have
/// (`../shared/realworld/`): for each KML, KMZ, GPX and GeoJSON file, as many features as
/// `ogrinfo` counts (GPX: its waypoints, routes and tracks layers; KML/KMZ: every layer of
/// the LIBKML driver). Runs where GDAL is installed (`scripts/test` installs `gdal-bin`).
@Suite("GDAL reads no more than geoconv", .enabled(if: GDAL.ogrinfo != nil))
struct GDALReadingTests {

    static let files: [String] = {
        let root = Fixtures.shared.appendingPathComponent("realworld")
        let all = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return all.filter { ["kml", "kmz", "gpx", "geojson"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { root.appendingPathComponent($0).path }
    }()

    /// What `ogrinfo` prints with `arguments` (its messages left out).
    static func ogrinfo(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GDAL.ogrinfo))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// The features `ogrinfo` counts in `path`.
    static func gdalCount(_ path: String) throws -> Int {
        let text = try ogrinfo(["-ro", "-al", "-so", path])
        let isGPX = path.lowercased().hasSuffix(".gpx")
        var layer = ""
        var total = 0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Layer name: ") { layer = String(line.dropFirst("Layer name: ".count)) }
            if line.hasPrefix("Feature Count: "), let count = Int(line.dropFirst("Feature Count: ".count)) {
                // GPX's route_points and track_points layers repeat the lines' points.
                if !isGPX || ["waypoints", "routes", "tracks"].contains(layer) { total += count }
            }
        }
        return total
    }

    /// `ogrinfo -al` of `path`: its layer names, field definitions and feature values.
    static func gdalFields(_ path: String) throws -> [String] {
        let text = try ogrinfo(["-ro", "-al", path])
        return text.split(separator: "\n").map(String.init).filter { line in
            line.hasPrefix("Layer name: ") || (line.hasPrefix("  ") && line.contains(" = "))
                || (!line.hasPrefix(" ") && line.hasSuffix(")") && line.contains(": ") && !line.hasPrefix("Extent"))
        }
    }

    /// Files geoconv reads less of than GDAL, not fixed yet, with why (each must stay exactly
    /// this, so the list only shrinks).
    static let knownBehind: [String: String] = [:]

    @Test("Every real file: geoconv reads at least as many features as GDAL")
    func readsAtLeastWhatGDALReads() throws {
        #expect(Self.files.count >= 20, "\(Self.files.count) real files")
        var behind: [String] = []
        for path in Self.files {
            let gdal = try Self.gdalCount(path)
            var ours = -1
            do {
                ours = try OverlayDocument.load(.file(path), options: ConversionOptions()).features.count
            } catch {
                if gdal > 0 { behind.append("\(path): refused (\(error.message)); GDAL reads \(gdal)") }
                continue
            }
            if ours < gdal { behind.append("\(path): \(ours) features; GDAL reads \(gdal)") }
        }
        let root = Fixtures.shared.appendingPathComponent("realworld").path + "/"
        let unexpected = behind.filter { line in !Self.knownBehind.keys.contains { line.hasPrefix(root + $0 + ": ") } }
        #expect(unexpected.isEmpty, "\(unexpected.joined(separator: "\n"))")
        for known in Self.knownBehind.keys {
            #expect(
                behind.contains { $0.hasPrefix(root + known + ": ") },
                "\(known) is read as GDAL reads it now: take it off knownBehind")
        }
    }

    @Test("A KMZ geoconv writes shows GDAL's LIBKML driver the layers, fields and values it shows for the same doc.kml")
    func kmzFieldsAsInDocKML() throws {
        let ours = Fixtures.testdata("kml/layers-with-data.kml")
        // Every real file of a format geoconv reads: its properties become the KMZ's fields.
        let real = Self.files
        let directory = try Fixtures.temporaryDirectory()
        var compared = 0
        for input in [ours] + real {
            // doc.kmz: a layer without a name is named after the file, doc in both.
            let kmz = directory.appendingPathComponent("doc.kmz").path
            try? FileManager.default.removeItem(atPath: kmz)
            let result = try CLI.run([input, kmz])
            guard result.status == 0 else { continue }  // refused: the conservation check covers it
            let docKML = "/vsizip/" + kmz + "/doc.kml"  // GDAL opens the archive's doc.kml as a .kml
            let inKMZ = try Self.gdalFields(kmz)
            let inDocKML = try Self.gdalFields(docKML)
            #expect(
                inKMZ == inDocKML,
                "\(input): GDAL sees in the KMZ \(inKMZ.filter { !inDocKML.contains($0) }.prefix(5)), in its doc.kml \(inDocKML.filter { !inKMZ.contains($0) }.prefix(5))"
            )
            compared += 1
        }
        #expect(compared >= 50, "\(compared) files compared")
        // The fixture's two My Maps layers, each with its fields, in the KMZ.
        let kmz = directory.appendingPathComponent("layers.kmz").path
        #expect(try CLI.run([ours, kmz]).status == 0)
        let layers = try Self.gdalFields(kmz)
        #expect(layers.contains("Layer name: Layer 1") && layers.contains("Layer name: Layer 2"))
        #expect(
            layers.contains("  Rank (String) = 3") && layers.contains("  Capacity (String) = 450")
                && layers.contains("  Kind (String) = park"),
            "\(layers)")
    }
}
