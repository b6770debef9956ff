import Foundation
import GeoConvTestSupport
import Testing

@Suite("geoconv with KML and KMZ (runs the built binary)")
struct KMLCLITests {
    @Test("KML → GeoJSON → KMZ → KML on the command line")
    func conversions() throws {
        let directory = try Fixtures.temporaryDirectory()
        let geojson = directory.appendingPathComponent("trails.geojson").path
        let kmz = directory.appendingPathComponent("trails.kmz").path
        let kml = directory.appendingPathComponent("back.kml").path
        let first = try CLI.run([Fixtures.testdata("kml/trails.kml"), geojson])
        #expect(first.status == 0, "\(first.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geojson))) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let walk = try #require(features.first?["properties"] as? [String: Any])
        #expect(walk["name"] as? String == "Three Sisters walk")
        #expect(walk["stroke"] as? String == "#ff0000")
        #expect(walk["geoconv:folder"] as? [String] == ["Walks", "Easy"])
        #expect(try CLI.run([geojson, kmz]).status == 0)
        #expect(try CLI.run([kmz, kml]).status == 0)
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        #expect(text.contains("<Folder><name>Walks</name>"))
        #expect(text.contains("<SimpleData name=\"grade\">2</SimpleData>"))
        let info = try CLI.run(["info", kmz])
        #expect(info.stdout.contains("kmz"))
        #expect(info.stdout.contains("features: 6"))
    }

    @Test("A hostile KML fails with exit 1, a located error, and no output file")
    func hostile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.geojson").path
        let result = try CLI.run([Fixtures.testdata("kml/xxe.kml"), output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("xxe.kml:"))
        #expect(result.stderr.contains("declares XML entities"))
        #expect(!result.stderr.contains("root:x:0"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let validate = try CLI.run(["validate", Fixtures.testdata("kml/mismatched.kml")])
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("mismatched.kml:4:"))
    }

    @Test("KML from standard input is recognised by content")
    func standardInput() throws {
        let text = try String(contentsOfFile: Fixtures.testdata("kml/trails.kml"), encoding: .utf8)
        let result = try CLI.run(["-", "-", "--to", "geojsonseq"], stdin: text)
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 6)
    }
}
