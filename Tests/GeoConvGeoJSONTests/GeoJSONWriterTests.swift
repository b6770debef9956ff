import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvGeoJSON
import GeoConvIO
import GeoConvTestSupport
import Testing

@Suite("GeoJSON writing")
struct GeoJSONWriterTests {
    @Test("RFC 7946: exterior rings counter-clockwise, holes clockwise, rings closed")
    func winding() throws {
        let clockwise: Path = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 0),
            Coordinate(latitude: 1, longitude: 1),
            Coordinate(latitude: 0, longitude: 1),
        ]
        let hole: Path = [
            Coordinate(latitude: 0.2, longitude: 0.2), Coordinate(latitude: 0.2, longitude: 0.8),
            Coordinate(latitude: 0.8, longitude: 0.8), Coordinate(latitude: 0.8, longitude: 0.2),
        ]
        let (text, _) = try writeGeoJSON([Feature(geometry: .polygon(PolygonRings(outer: clockwise, holes: [hole])))])
        #expect(
            text.contains(
                #""coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[0.2,0.2],[0.2,0.8],[0.8,0.8],[0.8,0.2],[0.2,0.2]]]"#)
        )
    }

    @Test("Coordinates that are not degrees (a latitude beyond ±90) are never cut nor moved, points included")
    func notDegreesNotCut() throws {
        // A projected shapefile without its .prj (Chinese sample data): -248.7 stayed where
        // it was only in lines and polygons; a point was moved to 111.3 with latitude 625.6.
        let point = Feature(geometry: .point(Coordinate(latitude: 625.6, longitude: -248.7)))
        let points = Feature(
            geometry: .multiPoint([
                Coordinate(latitude: 625.6, longitude: -248.7),
                Coordinate(latitude: 45, longitude: 190),
            ]))
        let (text, diagnostics) = try writeGeoJSON([point, points])
        #expect(text.contains(#"{"type":"Point","coordinates":[-248.7,625.6]}"#), "\(text)")
        // (Within the multipoint, the one position that is degrees is still moved into range.)
        #expect(text.contains(#"{"type":"MultiPoint","coordinates":[[-248.7,625.6],[-170,45]]}"#), "\(text)")
        #expect(diagnostics.entries["geojson.antimeridian-cut"]?.count == 1)
    }

    @Test("A line that goes the short way across the antimeridian is cut (the appendix example); planar ones are not")
    func antimeridian() throws {
        let line = Feature(
            geometry: .lineString([Coordinate(latitude: 45, longitude: 170), Coordinate(latitude: 45, longitude: -170)])
        )
        // Planar GeoJSON: the line from 170° to -170° goes through 0°, and stays as it is.
        let (planar, quiet) = try writeGeoJSON([line], strict: true)
        #expect(planar.contains(#"{"type":"LineString","coordinates":[[170,45],[-170,45]]}"#))
        #expect(quiet.isEmpty)
        // From KML (edges the shorter way round) it crosses 180°: cut, and reported (a warning, so --strict refuses it).
        let (text, diagnostics) = try writeGeoJSON([line], header: DocumentHeader(edgesTakeShorterWay: true))
        #expect(text.contains(#"{"type":"MultiLineString","coordinates":[[[170,45],[180,45]],[[-180,45],[-170,45]]]}"#))
        #expect(diagnostics.entries["geojson.antimeridian-cut"]?.first.isNote == false)
        #expect {
            try writeGeoJSON([line], header: DocumentHeader(edgesTakeShorterWay: true), strict: true)
        } throws: { error in
            (error as? GeoConvError)?.code == .dataLoss
                && (error as? GeoConvError)?.message.contains("geojson.antimeridian-cut") == true
        }
        // A geodesic line is drawn the short way whatever the source.
        var geodesic = line
        geodesic.style.geodesic = true
        #expect(
            try writeGeoJSON([geodesic]).0.contains(
                #""MultiLineString","coordinates":[[[170,45],[180,45]],[[-180,45],[-170,45]]]"#))
        // Planar, but beyond 180°: cut where it passes 180°.
        let beyond = Feature(
            geometry: .lineString([Coordinate(latitude: 45, longitude: 170), Coordinate(latitude: 45, longitude: 190)]))
        #expect(
            try writeGeoJSON([beyond]).0.contains(
                #""MultiLineString","coordinates":[[[170,45],[180,45]],[[-180,45],[-170,45]]]"#))
        // The issue's cases: a wide polygon stays; a line along ±180 never gives NaN.
        let wide = Feature(
            geometry: .polygon(
                PolygonRings(outer: [
                    Coordinate(latitude: 0, longitude: -100), Coordinate(latitude: 0, longitude: 100),
                    Coordinate(latitude: 10, longitude: 100),
                    Coordinate(latitude: 10, longitude: -100), Coordinate(latitude: 0, longitude: -100),
                ])))
        #expect(
            try writeGeoJSON([wide]).0.contains(
                #""Polygon","coordinates":[[[-100,0],[100,0],[100,10],[-100,10],[-100,0]]]"#))
        for shorterWay in [false, true] {
            let edge = Feature(
                geometry: .lineString([
                    Coordinate(latitude: 10, longitude: -180), Coordinate(latitude: 20, longitude: 180),
                ]))
            let (out, _) = try writeGeoJSON([edge], header: DocumentHeader(edgesTakeShorterWay: shorterWay))
            #expect(!out.contains("nan") && !out.contains("inf"), "\(out)")
            #expect(try readGeoJSON(out).1.count == 1)
        }
        // A polygon across it becomes two polygons, one on each side.
        let square = Feature(
            geometry: .polygon(
                PolygonRings(outer: [
                    Coordinate(latitude: 40, longitude: 170), Coordinate(latitude: 40, longitude: -170),
                    Coordinate(latitude: 50, longitude: -170),
                    Coordinate(latitude: 50, longitude: 170), Coordinate(latitude: 40, longitude: 170),
                ])))
        let (polygonText, _) = try writeGeoJSON([square], header: DocumentHeader(edgesTakeShorterWay: true))
        let (_, read, _) = try readGeoJSON(polygonText)
        guard case .multiPolygon(let parts)? = read.first?.geometry else {
            Issue.record("not cut: \(polygonText)")
            return
        }
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.outer.allSatisfy { abs($0.longitude) >= 170 } })
        #expect(parts.allSatisfy { part in part.outer.contains { abs($0.longitude) == 180 } })
        // With RFC 7946 off, nothing is cut.
        let (plain, _) = try writeGeoJSON([line], options: GeoJSONWriteOptions(rfc7946: false))
        #expect(plain.contains(#""LineString","coordinates":[[170,45],[-170,45]]"#))
    }

    @Test("Precision, bbox and pretty printing")
    func options() throws {
        let feature = Feature(
            geometry: .lineString([
                Coordinate(latitude: 1.23456789, longitude: 2.5), Coordinate(latitude: -3.14159, longitude: 4),
            ]))
        let (rounded, _) = try writeGeoJSON([feature], options: GeoJSONWriteOptions(precision: 3))
        #expect(rounded.contains("[[2.5,1.235],[4,-3.142]]"))
        let (boxed, _) = try writeGeoJSON([feature], options: GeoJSONWriteOptions(writesBoundingBoxes: true))
        #expect(boxed.contains(#""bbox":[2.5,-3.14159,4,1.23456789],"properties""#))
        #expect(boxed.hasSuffix(#"],"bbox":[2.5,-3.14159,4,1.23456789]}"# + "\n"))
        let (pretty, _) = try writeGeoJSON([feature], options: GeoJSONWriteOptions(pretty: true))
        #expect(
            pretty.contains(
                "\n      \"geometry\": {\n        \"type\": \"LineString\",\n        \"coordinates\": [\n          [2.5, 1.23456789],"
            ))
        #expect(try JSONSerialization.jsonObject(with: Data(pretty.utf8)) is [String: Any])
    }

    @Test("Model → GeoJSON → model is lossless for every field of the model")
    func modelRoundTrip() throws {
        var style = Style(
            strokeColor: Color(red: 10, green: 20, blue: 30, opacity: 0.5), strokeWidth: 3.5,
            fillColor: Color(red: 1, green: 2, blue: 3, opacity: 0.25), geodesic: true, icon: "pin.png", iconScale: 1.5,
            markerColor: Color(red: 200, green: 100, blue: 50), markerSymbol: "park", markerSize: "small",
            groundAnchor: Anchor(x: 0.5, y: 0.9), infoWindowAnchor: Anchor(x: 0.4, y: 0.1), rotation: 45,
            opacity: 0.8, zIndex: 7)
        style.spans = [
            try #require(StyleSpan(style: .solid(.white), segments: 1.0)),
            try #require(StyleSpan(style: .gradient(from: .red, to: Color.blue.withOpacity(0.5)), segments: 0.5)),
            try #require(
                StyleSpan(style: .solid(.black, stamp: StampStyle(.texture, image: "arrows.png")), segments: 2.25)),
        ]
        let features = [
            Feature(
                id: .string("a"),
                geometry: .lineString([Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 3, longitude: 4)]),
                title: "Line", snippet: "<p>html</p>", style: style, properties: ["k": "v", "n": 1]),
            Feature(
                id: .number(JSONNumber(2)),
                geometry: .circle(center: Coordinate(latitude: -33.85, longitude: 151.2), radius: 1234.5),
                title: "Circle"),
            Feature(geometry: nil, properties: ["only": true]),
        ]
        let header = DocumentHeader(
            name: "Doc", description: "About",
            camera: CameraPosition(
                target: Coordinate(latitude: -33.86, longitude: 151.21), zoom: 12.5, bearing: 30,
                viewingAngle: 20),
            tileLayers: [
                TileLayer(
                    urlTemplate: "https://tiles.example/{z}/{x}/{y}.png", name: "Base", zIndex: 2,
                    tileSize: .retina, opacity: 0.7, fadeIn: false)
            ])
        let (text, _) = try writeGeoJSON(features, header: header)
        let (readHeader, read, _) = try readGeoJSON(text)
        #expect(readHeader.name == "Doc" && readHeader.description == "About")
        #expect(readHeader.camera == header.camera)
        #expect(readHeader.tileLayers == header.tileLayers)
        #expect(read.count == 3)
        #expect(read[0].style == style)
        #expect(read[0].title == "Line" && read[0].snippet == "<p>html</p>" && read[0].id == .string("a"))
        #expect(read[0].properties["k"] == "v" && read[0].properties["n"] == 1)
        #expect(read[1].geometry == features[1].geometry && read[1].title == "Circle")
        #expect(read[2].geometry == nil && read[2].properties == ["only": true])
        // Written again, the text is identical: the mapping is stable.
        #expect(try writeGeoJSON(read, header: readHeader).text == text)
    }

    @Test("A changed model value replaces its property in place; unchanged ones keep their literal")
    func mergedProperties() throws {
        var (_, features, _) = try readGeoJSON(
            ##"{"type":"Feature","properties":{"a":1,"stroke":"#FF0000","stroke-width":2.0,"name":"x"},"geometry":null}"##
        )
        features[0].style.strokeWidth = 5
        features[0].snippet = "new"
        let (text, _) = try writeGeoJSON(features)
        #expect(
            text.contains(##""properties":{"a":1,"stroke":"#FF0000","stroke-width":5,"name":"x","description":"new"}"##)
        )
    }

    @Test("Foreign members survive at every level")
    func foreignMembers() throws {
        let text = try String(
            contentsOfFile: Fixtures.conformance.appendingPathComponent(
                "geojson/geojsonhint/good/good-featurecollection-extensions.geojson"
            ).path,
            encoding: .utf8)
        let (header, features, _) = try readGeoJSON(text)
        let (written, _) = try writeGeoJSON(features, header: header)
        let again = try readGeoJSON(written)
        #expect(again.header.foreignMembers["custom"] == true)
        #expect(again.features[0].foreignMembers["custom"] == true)
        #expect(again.features[0].foreignMembers["geometry"] == ["custom": true])
        #expect(written.contains(#""coordinates":[102,0.5],"custom":true}"#))
    }

    @Test("A text sequence has no document: its header is reported as lost")
    func sequenceLoss() throws {
        let (text, diagnostics) = try writeGeoJSON(
            [Feature(geometry: .point(Coordinate(latitude: 1, longitude: 2)))],
            header: DocumentHeader(name: "n"),
            options: GeoJSONWriteOptions(sequence: .recordSeparator))
        #expect(
            text
                == "\u{1E}{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]}}\n"
        )
        #expect(diagnostics.entries["document.parts-dropped"] != nil)
    }
}
