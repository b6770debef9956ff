import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// Keys belong to the user (issue 43, item 6): the model's title, snippet and altitude roles
/// never rename, re-case or move a property on the way out, and an attribute column becomes the
/// altitude only when the user names it or when it is the one geoconv writes.
@Suite("Keys belong to the user")
struct UserKeysTests {
    /// Properties as people write them: keys that differ only by case, keys named like the
    /// model's roles and like coordinate columns, in an order no writer would choose.
    static let input = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":7,"NAME":"Lesotho","Elevation":1400,"Name":"Maseru","description":"capital",\
        "height":3.5,"ele":12,"z":1,"x":"a","DESCRIPTION":"caps"},"geometry":{"type":"Point","coordinates":[27.48,-29.31]}},
        {"type":"Feature","properties":{"id":8,"NAME":"Eswatini","Elevation":null,"Name":"Mbabane","description":"",\
        "height":0,"ele":0,"z":0,"x":"b","DESCRIPTION":"other"},"geometry":{"type":"Point","coordinates":[31.13,-26.31]}}
        ]}
        """

    /// The features `bytes` holds, read as `format`.
    static func read(_ bytes: [UInt8], as format: FileFormat) throws -> [Feature] {
        let report = try Converter().convert(
            .memory(bytes, name: "in." + format.extensions[0]), to: .memory,
            options: ConversionOptions(inputFormat: format, outputFormat: .geoJSON))
        return try readGeoJSON(bytes: report.output).features
    }

    /// `bytes` (in `from`) converted to `to`.
    static func convert(_ bytes: [UInt8], from: FileFormat, to: FileFormat) throws -> [UInt8] {
        try Converter().convert(
            .memory(bytes, name: "in." + from.extensions[0]), to: .memory,
            options: ConversionOptions(inputFormat: from, outputFormat: to)
        ).output
    }

    /// Each feature's properties, key by key in order, and its geometry, equal to the original's.
    static func expectSame(_ got: [Feature], _ expected: [Feature], _ route: String) {
        #expect(got.count == expected.count, "\(route): \(got.count) features, not \(expected.count)")
        for (index, (a, b)) in zip(got, expected).enumerated() {
            #expect(
                Array(a.properties.keys) == Array(b.properties.keys),
                "\(route) feature \(index): keys \(Array(a.properties.keys))")
            for (key, value) in b.properties {
                #expect(
                    a.properties[key] == value,
                    "\(route) feature \(index) \(key): \(String(describing: a.properties[key])) for \(value)")
            }
            #expect(a.geometry == b.geometry, "\(route) feature \(index): \(String(describing: a.geometry))")
        }
    }

    @Test("GeoJSON → CSV → GeoJSON, CSV → CSV: every key as written, in its place; 2D stays 2D")
    func throughCSV() throws {
        let original = try readGeoJSON(Self.input).features
        let csv = try Self.convert(Array(Self.input.utf8), from: .geoJSON, to: .csv)
        let header = String(decoding: csv, as: UTF8.self).split(separator: "\n").first.map(String.init)
        #expect(header == "longitude,latitude,id,NAME,Elevation,Name,description,height,ele,z,x,DESCRIPTION")
        Self.expectSame(try Self.read(csv, as: .csv), original, "GeoJSON → CSV → GeoJSON")
        let again = try Self.convert(csv, from: .csv, to: .csv)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: csv, as: UTF8.self), "CSV → CSV")
    }

    @Test("GeoJSON → GeoParquet → GeoJSON and GeoParquet → GeoParquet: the same keys in the same order")
    func throughGeoParquet() throws {
        let original = try readGeoJSON(Self.input).features
        let parquet = try Self.convert(Array(Self.input.utf8), from: .geoJSON, to: .geoParquet)
        Self.expectSame(try Self.read(parquet, as: .geoParquet), original, "GeoJSON → GeoParquet → GeoJSON")
        let again = try Self.convert(parquet, from: .geoParquet, to: .geoParquet)
        Self.expectSame(try Self.read(again, as: .geoParquet), original, "GeoParquet → GeoParquet")
    }

    @Test("A title read from a `Name` column is still the placemark's name in KML, and the column stays data")
    func titleFromAnyCase() throws {
        let csv = "Latitude,Longitude,Name,Symbol\n46.13,-73.0,GC7FA4,Geocache\n"
        let kml = String(decoding: try Self.convert(Array(csv.utf8), from: .csv, to: .kml), as: UTF8.self)
        #expect(
            kml.contains("<name>GC7FA4</name>") && kml.contains(#"<SimpleData name="Name">GC7FA4</SimpleData>"#),
            "\(kml)")
        let back = try Self.read(Array(csv.utf8), as: .csv)
        #expect(Array(back.first?.properties.keys ?? []) == ["Name", "Symbol"])
    }

    @Test("The altitude column geoconv writes is read back as altitudes; a property of that name is renamed, reported")
    func altitudeColumn() throws {
        let threeD =
            #"{"type":"Feature","properties":{"elevation":5},"geometry":{"type":"Point","coordinates":[1,2,30]}}"#
        let csv = try Self.convert(Array(threeD.utf8), from: .geoJSON, to: .csv)
        #expect(String(decoding: csv, as: UTF8.self) == "longitude,latitude,altitude,elevation\n1,2,30,5\n")
        let back = try Self.read(csv, as: .csv)
        #expect(back.first?.geometry == .point(Coordinate(latitude: 2, longitude: 1, altitude: 30)))
        #expect(back.first?.properties == ["elevation": 5])
        let clash = #"{"type":"Feature","properties":{"altitude":5},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let report = try Converter().convert(
            .memory(Array(clash.utf8), name: "in.geojson"), to: .memory,
            options: ConversionOptions(inputFormat: .geoJSON, outputFormat: .csv))
        #expect(String(decoding: report.output, as: UTF8.self) == "longitude,latitude,altitude_2\n1,2,5\n")
        #expect(report.diagnostics.entries["csv.column-renamed"] != nil)
    }

    @Test("A title some features carry in `name` and others only as their title: one `name` column, every title kept")
    func mixedTitles() throws {
        // KML: a placemark whose ExtendedData `name` says what its <name> says, and one with a <name> only.
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>A</name><ExtendedData><Data name="name"><value>A</value></Data></ExtendedData>\
            <Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark><name>B</name><Point><coordinates>3,4</coordinates></Point></Placemark>
            </Document></kml>
            """
        let csv = String(decoding: try Self.convert(Array(kml.utf8), from: .kml, to: .csv), as: UTF8.self)
        #expect(csv == "longitude,latitude,name\n1,2,A\n3,4,B\n", "\(csv)")
        let back = try Self.read(Array(csv.utf8), as: .csv)
        #expect(back.map { $0.properties["name"] } == ["A", "B"])
    }

    @Test("A `name` that is not text beside a `title`: the title is the title's, and `name` keeps its number")
    func numericName() throws {
        let input =
            #"{"type":"Feature","properties":{"name":12,"title":"Main St"},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        for format in [FileFormat.geoJSON, .csv, .geoParquet] {
            let written = try Self.convert(Array(input.utf8), from: .geoJSON, to: format)
            let back = try Self.read(written, as: format)
            #expect(
                back.first?.properties == ["name": 12, "title": "Main St"],
                "\(format.name): \(String(describing: back.first?.properties))")
        }
    }

    @Test("GeoJSON's `NAME` alone is the title (as GDAL's KML writer takes it), and stays `NAME`")
    func upperCaseName() throws {
        let input =
            #"{"type":"Feature","properties":{"NAME":"Lesotho"},"geometry":{"type":"Point","coordinates":[27.5,-29.3]}}"#
        let kml = String(decoding: try Self.convert(Array(input.utf8), from: .geoJSON, to: .kml), as: UTF8.self)
        #expect(kml.contains("<name>Lesotho</name>") && kml.contains(#"name="NAME">Lesotho<"#), "\(kml)")
        let geojson = String(decoding: try Self.convert(Array(input.utf8), from: .geoJSON, to: .geoJSON), as: UTF8.self)
        #expect(geojson.contains(#""properties":{"NAME":"Lesotho"}"#), "\(geojson)")
    }
}
