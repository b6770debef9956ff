import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `OverlayDocument`: a whole file loaded, edited and saved through the same readers and
/// writers as a conversion; its bounds, camera and tiles.
@Suite("OverlayDocument")
struct OverlayDocumentTests {
    @Test("Load, edit, save: the edit is in the output and everything else is as a conversion writes it")
    func loadEditSave() throws {
        var document = try OverlayDocument.load(.file(Fixtures.testdata("gpx/hike.gpx")))
        #expect(
            document.format?.name == "gpx" && document.features.count == 4
                && document.header.name == "Mount Tamalpais loop")
        document.features.removeAll { $0.geometry?.kind == .point }
        document.features[0].style.strokeColor = Color(red: 255, green: 0, blue: 0)
        let saved = try document.save(to: .memory, options: ConversionOptions(outputFormat: .geoJSONSequence))
        let lines = String(decoding: saved.output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains(##""stroke":"#ff0000""##) && lines[0].contains(#""name":"Planned""#), "\(lines[0])")
        #expect(saved.diagnostics.entries["document.parts-dropped"] != nil)
        // Saved in the format it was read as when nothing else is named.
        let again = try document.save(to: .memory)
        #expect(again.outputFormat == "gpx" && String(decoding: again.output, as: UTF8.self).contains("<trkseg>"))
        // The same bytes as a conversion of the same features.
        let unedited = try OverlayDocument.load(.file(Fixtures.testdata("gpx/hike.gpx")))
        let viaDocument = try unedited.save(to: .memory, options: ConversionOptions(outputFormat: .kml))
        let viaConvert = try Converter().convert(
            .file(Fixtures.testdata("gpx/hike.gpx")), to: .memory,
            options: ConversionOptions(outputFormat: .kml))
        #expect(viaDocument.output == viaConvert.output)
    }

    @Test("Bounds, camera and tiles of a file; a projected one must be loaded reprojected")
    func cameraAndTiles() throws {
        let document = try OverlayDocument.load(.file(Fixtures.testdata("gpx/hike.gpx")))
        let bounds = try #require(document.bounds)
        #expect(bounds.west == -122.61 && bounds.east == -122.596 && bounds.south == 37.905 && bounds.north == 37.924)
        let camera = try document.camera(viewport: (390, 844))
        #expect(abs(camera.target.latitude - 37.9145) < 0.001 && camera.zoom > 13 && camera.zoom < 16)
        let tiles = try document.tiles(zoom: 12)
        #expect(tiles.map(\.description) == ["12/652/1581", "12/653/1581"])  // -122.61° is x 652.97

        let projected = "SRID=3857;POINT(-13627361 4566099)\n"
        let asRead = try OverlayDocument.load(.memory(Array(projected.utf8), name: "p.wkt"))
        #expect(asRead.header.crs == "EPSG:3857")
        #expect(throws: GeoConvError.self) { _ = try asRead.tiles(zoom: 3) }
        let reprojected = try OverlayDocument.load(
            .memory(Array(projected.utf8), name: "p.wkt"), reprojectingToWGS84: true)
        #expect(try reprojected.tiles(zoom: 3).map(\.description) == ["3/1/3"])
        let empty = OverlayDocument()
        #expect {
            _ = try empty.camera(viewport: (100, 100))
        } throws: { error in
            (error as? GeoConvError)?.code == .invalidInput
                && (error as? GeoConvError)?.message == "'the document' has no positions to fit"
        }
    }
}
