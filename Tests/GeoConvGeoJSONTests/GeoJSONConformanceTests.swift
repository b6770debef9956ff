import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvGeoJSON
import GeoConvIO
import GeoConvTestSupport
import Testing

@Suite("GeoJSON conformance (../shared/conformance/geojson)")
struct GeoJSONConformanceTests {
    struct Entry: Sendable, CustomStringConvertible {
        var file: String
        var expect: String
        var description: String { file }
    }

    static let directory = Fixtures.conformance.appendingPathComponent("geojson")

    static let entries: [Entry] = {
        Fixtures.conformanceManifest("geojson").compactMap { item in
            guard let file = item["file"] as? String, let expect = item["expect"] as? String else { return nil }
            return Entry(file: file, expect: expect)
        }
    }()

    @Test("The manifest lists 82 files")
    func manifest() { #expect(Self.entries.count == 82) }

    /// Geometry equality that ignores ring orientation and closure (the writer reorients and closes).
    @Test("Each file behaves as the manifest says", arguments: entries)
    func file(entry: Entry) throws {
        let url = Self.directory.appendingPathComponent(entry.file)
        let bytes = Array(try Data(contentsOf: url))
        let result: Result<(header: DocumentHeader, features: [Feature], diagnostics: DiagnosticLog), GeoConvError>
        do throws(GeoConvError) {
            result = .success(try readGeoJSON(bytes: bytes, name: entry.file))
        } catch {
            result = .failure(error)
        }
        switch (entry.expect, result) {
        case ("invalid", .success):
            Issue.record("\(entry.file) is invalid but was read")
        case ("invalid", .failure(let error)):
            #expect(error.location != nil, "\(entry.file): \(error)")
        case ("valid", .failure(let error)):
            Issue.record("\(entry.file) is valid but was refused: \(error)")
        case (_, .success(let read)):
            // Valid and lenient files that read: writing and reading back gives the same features.
            let (text, _) = try writeGeoJSON(read.features, header: read.header)
            let again = try readGeoJSON(text)
            #expect(again.features.count == read.features.count, "\(entry.file)")
            for (x, y) in zip(read.features, again.features) {
                #expect(sameShape(x.geometry, y.geometry), "\(entry.file)")
                #expect(
                    x.properties == y.properties && x.id == y.id && x.title == y.title && x.style == y.style,
                    "\(entry.file)")
            }
            #expect(try writeGeoJSON(again.features, header: again.header).text == text, "\(entry.file): not stable")
        case (_, .failure(let error)):
            // Lenient files may be refused, with a located error.
            #expect(error.location != nil, "\(entry.file): \(error)")
        }
    }
}
