import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// What geoconv writes as KML validates against the OGC KML 2.2 and gx schemas
/// (`../shared/conformance/kml/schema/`), checked in-process with libxml2.
@Suite("KML output is valid KML 2.2 + gx")
struct KMLSchemaTests {
    static let schema = XMLSchemaValidation.kmlSchema
    static var hasSchema: Bool { XMLSchemaValidation.hasKMLSchema }

    /// Inputs that exercise the KML writer: the repository's KML and GeoJSON samples and
    /// the shared corpus's KML.
    static let inputs: [String] = {
        var paths = [
            "kml/rich.kml", "kml/trails.kml", "kml/track-arrays.kml", "kml/forward-styles.kml",
            "geojson/faithful.geojson",
            "geojson/markers.geojson",
        ].map(Fixtures.testdata)
        // Peers' fixtures and the real files people have.
        let corpora = [
            Fixtures.conformance.appendingPathComponent("kml"),
            Fixtures.shared.appendingPathComponent("realworld/kml"),
            Fixtures.shared.appendingPathComponent("realworld-more/kml"),
            Fixtures.shared.appendingPathComponent("realworld-more/kmz"),
        ]
        for corpus in corpora {
            if let files = FileManager.default.enumerator(atPath: corpus.path)?.compactMap({ $0 as? String }) {
                paths += files.filter { $0.hasSuffix(".kml") || $0.hasSuffix(".kmz") }.sorted().map {
                    corpus.appendingPathComponent($0).path
                }
            }
        }
        return paths
    }()

    @Test("Every KML geoconv writes validates", .enabled(if: hasSchema))
    func outputsValidate() throws {
        var checked = 0
        for path in Self.inputs {
            let report: ConversionReport
            do {
                report = try Converter().convert(
                    .file(path), to: .memory, options: ConversionOptions(outputFormat: .kml))
            } catch {
                continue  // inputs geoconv refuses are tested elsewhere
            }
            let errors = XMLSchemaValidation.errors(in: report.output, schema: Self.schema)
            #expect(errors.isEmpty, "\(path): \(errors.prefix(5).joined(separator: "\n"))")
            checked += 1
        }
        #expect(checked >= 4, "\(checked) outputs checked")
    }

    @Test("A KMZ's doc.kml (top-level folders as Documents, each with the schema) validates", .enabled(if: hasSchema))
    func kmzDocumentValidates() throws {
        let (header, features, _) = try readKML(path: Fixtures.testdata("kml/layers-with-data.kml"))
        let output = try ByteWriter(.memory)
        var writer = KMLWriter(
            output, options: KMLWriteOptions(topFoldersAsDocuments: true), diagnostics: DiagnosticLog())
        try writer.begin(header)
        for feature in features { try writer.write(feature) }
        try writer.finish()
        let text = String(decoding: output.memoryContents, as: UTF8.self)
        #expect(
            text.contains("<Document><name>Layer 1</name>\n<Schema name=\"geoconv-schema-2\" id=\"geoconv-schema-2\">"),
            "\(text)")
        #expect(
            text.contains("<Document><name>Layer 2</name>\n<Schema name=\"geoconv-schema-3\" id=\"geoconv-schema-3\">"))
        let errors = XMLSchemaValidation.errors(in: output.memoryContents, schema: Self.schema)
        #expect(errors.isEmpty, "\(errors.prefix(5).joined(separator: "\n"))")
    }

    @Test("The check finds what breaks the schema", .enabled(if: hasSchema))
    func checkFindsErrors() {
        let bad =
            #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><altitudeMode>sideways</altitudeMode><coordinates>1,2</coordinates></Point></Placemark></kml>"#
        let errors = XMLSchemaValidation.errors(in: Array(bad.utf8), schema: Self.schema)
        #expect(errors.contains { $0.contains("altitudeMode") }, "\(errors)")
        let good =
            #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></kml>"#
        #expect(XMLSchemaValidation.errors(in: Array(good.utf8), schema: Self.schema).isEmpty)
    }
}
