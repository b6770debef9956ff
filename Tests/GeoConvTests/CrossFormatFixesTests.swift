import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// One hand-written fixture per silent change the cross-format check found (issue 43): each
/// now kept, or reported by a warning of the conversion.
@Suite struct CrossFormatFixesTests {
    /// Converts GeoJSON text to `format` in memory: the output and the warnings' codes and
    /// messages.
    private func convert(_ geojson: String, to format: FileFormat) throws -> (out: [UInt8], warnings: [Diagnostic]) {
        var options = ConversionOptions(inputFormat: .geoJSON, outputFormat: format)
        options.listsEveryWarning = true
        let report = try Converter().convert(
            .memory(Array(geojson.utf8), name: "in.geojson"), to: .memory,
            options: options)
        return (report.output, report.diagnostics.everyWarning)
    }

    private func read(_ bytes: [UInt8], as format: FileFormat) throws -> [Feature] {
        try OverlayDocument.load(
            .memory(bytes, name: "back." + format.extensions[0]),
            options: ConversionOptions(inputFormat: format)
        ).features
    }

    private func feature(
        _ properties: String, _ geometry: String = #"{"type":"Point","coordinates":[1,2]}"#
    )
        -> String
    {
        #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":"# + properties
            + #","geometry":"# + geometry + "}]}"
    }

    @Test("A track of one position in a gx:MultiTrack is a line of one, not left out with the others' places")
    func oneCoordinateTrackInMultiTrack() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <Placemark><gx:MultiTrack>
            <gx:Track><when>2020-01-01T00:00:00Z</when><when>2020-01-01T00:00:05Z</when>
            <gx:coord>1 2 3</gx:coord><gx:coord>1.5 2.5 3</gx:coord></gx:Track>
            <gx:Track><when>2020-01-01T00:10:00Z</when><gx:coord>4 5 6</gx:coord></gx:Track>
            </gx:MultiTrack></Placemark></Document></kml>
            """
        let features = try readKML(text: kml)
        guard case .multiLineString(let lines)? = features.first?.geometry else {
            Issue.record("not a MultiLineString: \(String(describing: features.first?.geometry))")
            return
        }
        #expect(lines.map(\.count) == [2, 1])
        #expect(lines[1].coordinates == [Coordinate(latitude: 5, longitude: 4, altitude: 6)])
    }

    @Test("KML keeps a styleUrl with no style behind it, a non-boolean visibility and an unused @geometry-type")
    func kmlKeepsWhatItsElementsDoNotTake() throws {
        let input = feature(
            ##"{"name":"a","styleUrl":"#elsewhere","visibility":"0","@geometry-type":"groundoverlay"}"##,
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)
        let (out, _) = try convert(input, to: .kml)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains("<styleUrl>#elsewhere</styleUrl>"))
        let back = try read(out, as: .kml)
        #expect(back.first?.properties["visibility"] == "0")
        #expect(back.first?.properties["@geometry-type"] == "groundoverlay")
        #expect(back.first?.properties["styleUrl"] == "#elsewhere")
    }

    @Test("A `name` that is not the placemark's <name> is kept as data and reported; a `title` is data, not renamed")
    func kmlNameAndTitleData() throws {
        let (out, warnings) = try convert(feature(#"{"NAME":"x","name":42,"title":"T"}"#), to: .kml)
        #expect(warnings.contains { $0.code == "kml.name-as-data" && $0.message.contains("\"name\"") })
        let back = try read(out, as: .kml)
        #expect(back.first?.properties["name_2"] == 42)
        #expect(back.first?.properties["title"] == "T")
    }

    @Test("GPX writes a `title` that gives the title as <name> and keeps it under its own key")
    func gpxKeepsTitle() throws {
        let (out, _) = try convert(feature(#"{"mag":1.7,"title":"M 1.7"}"#), to: .gpx)
        let back = try read(out, as: .gpx)
        #expect(back.first?.title == "M 1.7")
        #expect(back.first?.properties["title"] == "M 1.7")
    }

    @Test(
        "A `name` beside a `NAME` saying the same title comes back through KML and GPX, keys in order",
        arguments: [FileFormat.kml, .gpx])
    func nameBesideNAME(format: FileFormat) throws {
        let (out, _) = try convert(feature(#"{"name":"A","NAME":"A","x":1}"#), to: format)
        let back = try read(out, as: format)
        #expect(back.first?.title == "A")
        #expect(back.first?.properties.keys.elementsEqual(["name", "NAME", "x"]) == true)
        #expect(back.first?.properties["name"] == "A")
    }

    @Test("A GPX waypoint's GDAL field `name` that is not text stays a field: the title is not taken from it")
    func gpxNumberName() throws {
        let (out, _) = try convert(feature(#"{"lon":"bank","name":12.0,"code":"L"}"#), to: .gpx)
        let back = try read(out, as: .gpx)
        #expect(back.first?.title == nil)
        #expect(back.first?.properties.keys.elementsEqual(["lon", "name", "code"]) == true)
        #expect(back.first?.properties["name"]?.doubleValue == 12)
    }

    @Test("An empty KML <description></description> reads as an empty snippet, as an empty <name> does")
    func kmlEmptyDescription() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name></name>
            <description></description><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>
            """
        let features = try readKML(text: kml)
        #expect(features.first?.title == "")
        #expect(features.first?.snippet == "")
    }

    @Test("GPX says that a longitude of 180 is written as -180 (a warning: lines reaching it are drawn across)")
    func gpxLongitude180() throws {
        let (out, warnings) = try convert(
            feature("{}", #"{"type":"LineString","coordinates":[[170,0],[180,0]]}"#),
            to: .gpx)
        #expect(warnings.contains { $0.code == "gpx.longitude-180" })
        #expect(String(decoding: out, as: UTF8.self).contains(#"lon="-180""#))
    }

    @Test("CSV warns where a title that spells a number is written to its name column")
    func csvTitleReadsAsNumber() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>1</name><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>
            """
        var options = ConversionOptions(inputFormat: .kml, outputFormat: .csv)
        options.listsEveryWarning = true
        let report = try Converter().convert(.memory(Array(kml.utf8), name: "in.kml"), to: .memory, options: options)
        let warning = report.diagnostics.everyWarning.first { $0.code == "csv.text-reads-as-typed" }
        #expect(warning?.message.contains("\"name\"") == true)
    }

    #if Shapefile
    @Test("A hole inside another part's shell is reported: a shapefile keeps rings, and readers regroup them")
    func shapefileRegroupedRings() throws {
        // Part 1's hole (11..12) lies inside part 2's shell (10..14), not its own (0..4).
        let parts =
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[4,0],[4,4],[0,4],[0,0]],"#
            + #"[[11,11],[11,12],[12,12],[12,11],[11,11]]],[[[10,10],[14,10],[14,14],[10,14],[10,10]]]]}"#
        let (out, warnings) = try convert(feature(#"{"a":1}"#, parts), to: .shapefile)
        #expect(warnings.contains { $0.code == "shapefile.rings-regrouped" })
        guard case .multiPolygon(let back)? = try read(out, as: .shapefile).first?.geometry else {
            Issue.record("not read back as a MultiPolygon")
            return
        }
        #expect(back.map(\.holes.count) == [0, 1])
        // One shell keeps every hole, wherever it lies, as GDAL reads it: no change to report.
        let outside =
            #"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],"#
            + #"[[10,10],[10,11],[11,11],[11,10],[10,10]]]}"#
        let (kept, quiet) = try convert(feature(#"{"a":1}"#, outside), to: .shapefile)
        #expect(!quiet.contains { $0.code == "shapefile.rings-regrouped" })
        guard case .polygon(let rings)? = try read(kept, as: .shapefile).first?.geometry else {
            Issue.record("not read back as a Polygon")
            return
        }
        #expect(rings.holes.count == 1)
    }

    @Test("The shapefiles of a zip are read in the zip's order, as GDAL lists its layers")
    func zipOrder() throws {
        let input =
            #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},"#
            + #"{"type":"Feature","properties":{"n":2},"geometry":{"type":"Polygon","coordinates":"#
            + #"[[[0,0],[1,0],[1,1],[0,0]]]}},"#
            + #"{"type":"Feature","properties":{"n":3},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        let (out, _) = try convert(input, to: .shapefile)
        let back = try read(out, as: .shapefile)
        #expect(back.map { $0.properties["n"] } == [1, 2, 3])
    }
    #endif
}
