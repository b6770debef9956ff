import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// The rows of "Never change data silently", each as a user runs it (the built binary).
@Suite("Nothing changes silently (runs the built binary)")
struct NothingSilentTests {
    @Test("A wide planar polygon or line is not cut; --strict passes")
    func widePolygon() throws {
        let polygon = #"{"type":"Polygon","coordinates":[[[-100,0],[100,0],[100,10],[-100,10],[-100,0]]]}"#
        for to in ["geojson", "geojsonseq"] {
            let result = try CLI.run(["-", "-", "--from", "geojson", "--to", to, "--strict"], stdin: polygon)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stdout.contains(
                    #""geometry":{"type":"Polygon","coordinates":[[[-100,0],[100,0],[100,10],[-100,10],[-100,0]]]}"#))
        }
        let line = try CLI.run(
            ["-", "-", "--from", "wkt", "--to", "geojson", "--strict"], stdin: "LINESTRING (-100 0, 100 0)\n")
        #expect(
            line.status == 0 && line.stdout.contains(#""LineString","coordinates":[[-100,0],[100,0]]"#),
            "\(line.stderr)")
    }

    @Test("Lines along ±180° never give NaN, and read back")
    func alongTheAntimeridian() throws {
        let cases = [
            ("wkt", "LINESTRING(-180 10, 180 10)\n"),
            ("geojson", #"{"type":"LineString","coordinates":[[180,10],[-180,20]]}"#),
            (
                "kml",
                #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>180,10 -180,20 170,20</coordinates></LineString></Placemark></kml>"#
            ),
        ]
        for (from, text) in cases {
            let result = try CLI.run(["-", "-", "--from", from, "--to", "geojson"], stdin: text)
            #expect(result.status == 0, "\(from): \(result.stderr)")
            #expect(!result.stdout.contains("nan") && !result.stdout.contains("inf"), "\(from): \(result.stdout)")
            let back = try CLI.run(["-", "-", "--from", "geojson", "--to", "geojson"], stdin: result.stdout)
            #expect(back.status == 0, "\(from): geoconv reads its own output: \(back.stderr)")
        }
        // KML draws 170 → -170 the short way: cut, reported, refused by --strict.
        let kml =
            #"<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>170,45 -170,45</coordinates></LineString></Placemark></kml>"#
        let cut = try CLI.run(["-", "-", "--from", "kml", "--to", "geojson"], stdin: kml)
        #expect(cut.stdout.contains(#""MultiLineString","coordinates":[[[170,45],[180,45]],[[-180,45],[-170,45]]]"#))
        #expect(cut.stderr.contains("[geojson.antimeridian-cut]"))
        let strict = try CLI.run(["-", "-", "--from", "kml", "--to", "geojson", "--strict"], stdin: kml)
        #expect(
            strict.status == 1 && strict.stderr.contains("<stdin>:1:")
                && strict.stderr.contains("geojson.antimeridian-cut"), "\(strict.stderr)")
    }

    @Test(
        "An EWKT SRID is kept; --srid is a target CRS, never a label",
        .enabled(if: BuiltTraits.proj, "needs the PROJ trait"))
    func srids() throws {
        let ewkt = "SRID=3857;POINT (1113194.9079327357 1118889.9748579597)\n"
        let kept = try CLI.run(["-", "-", "--from", "wkt", "--to", "wkt"], stdin: ewkt)
        #expect(kept.stdout == ewkt, "\(kept.stderr)")
        #expect(try CLI.run(["-", "-", "--from", "wkt", "--to", "wkt", "--srid", "3857"], stdin: ewkt).stdout == ewkt)
        let wgs84 = try CLI.run(["-", "-", "--from", "wkt", "--to", "wkt", "--srid", "4326"], stdin: ewkt)
        #expect(wgs84.stdout.hasPrefix("SRID=4326;POINT (10 10"), "\(wgs84.stdout) \(wgs84.stderr)")
        let hex = try CLI.run(["-", "-", "--from", "wkt", "--to", "wkbhex"], stdin: ewkt)
        #expect(hex.stdout.hasPrefix("0101000020110F0000"), "EWKB with SRID 3857: \(hex.stdout)")
        let conflict = try CLI.run(
            ["-", "-", "--from", "wkt", "--to", "wkt", "--srid", "4326", "--t-srs", "EPSG:3857"], stdin: ewkt)
        #expect(
            conflict.status == 64 && conflict.stderr.contains("--srid 4326 and --t-srs EPSG:3857 name different CRSs"))
        // A PROJ string without +type=crs is a CRS, as GDAL takes it.
        let utm = try CLI.run(
            ["-", "-", "--from", "wkt", "--to", "geojson", "--s-srs", "+proj=utm +zone=33 +datum=WGS84"],
            stdin: "POINT (500000 4649776.22482)\n")
        #expect(
            utm.status == 0 && utm.stdout.contains(#""coordinates":[14.99999999999998"#), "\(utm.stdout) \(utm.stderr)")
    }

    @Test("Extreme values pass every writer; what a KML field cannot hold becomes a string field with a note")
    func extremeValues() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("extreme.geojson").path
        let decimal = "1." + String(repeating: "1234567890", count: 40)
        try
            (#"{"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"min":-9223372036854775808,"#
            + #""max":9223372036854775807,"u":18446744073709551615,"d":\#(decimal),"e":"","h":"\#(String(repeating: "é", count: 100_000))","i":2147483647}}"#)
            .write(toFile: input, atomically: false, encoding: .utf8)
        for ext in ["kml", "kmz", "geojson", "geojsons", "wkt", "wkbhex", "polyline"] {
            let result = try CLI.run([input, directory.appendingPathComponent("out.\(ext)").path])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
        }
        let kml = try String(contentsOfFile: directory.appendingPathComponent("out.kml").path, encoding: .utf8)
        #expect(
            kml.contains(#"<SimpleField name="min" type="string"/>"#)
                && kml.contains(#"<SimpleData name="min">-9223372036854775808</SimpleData>"#))
        #expect(
            kml.contains(#"<SimpleField name="i" type="int"/>"#)
                && kml.contains("<SimpleData name=\"d\">\(decimal)</SimpleData>"))
        let info = try CLI.run(["info", input])
        #expect(info.status == 0 && info.stdout.contains("[kml.number-as-text]"), "\(info.stdout) \(info.stderr)")
    }

    @Test(
        "KML elements are written back: StyleMaps, MultiTracks, Regions, views, display names, overlays; the rest is reported"
    )
    func kmlElements() throws {
        let input = Fixtures.testdata("kml/rich.kml")
        let result = try CLI.run([input, "-", "--to", "kml"])
        #expect(result.status == 0)
        let kml = result.stdout
        #expect(
            kml.contains(
                #"<StyleMap id="trail"><Pair><key>normal</key><styleUrl>#s2</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#s1</styleUrl></Pair></StyleMap>"#
            ))
        #expect(kml.contains(#"<Style id="s1"><LineStyle><color>ff00ffff</color><width>6</width></LineStyle></Style>"#))
        #expect(
            kml.contains("<Style id=\"s3\"><IconStyle><color>ff0000ff</color><scale>1.5</scale></IconStyle></Style>"),
            "inline highlight kept")
        #expect(
            kml.contains(
                "<gx:MultiTrack><gx:Track><when>2026-01-01T10:00:00Z</when><when>2026-01-01T10:01:00Z</when><gx:coord>151.1 -33.8 10</gx:coord>"
            ))
        #expect(
            kml.contains(
                "<Region><LatLonAltBox><north>-33.7</north><south>-33.9</south><east>151.3</east><west>151.1</west></LatLonAltBox><Lod><minLodPixels>128</minLodPixels><maxLodPixels>-1</maxLodPixels></Lod></Region>"
            ))
        #expect(
            kml.contains(
                "<LookAt><longitude>151.2</longitude><latitude>-33.8</latitude><altitude>0</altitude><heading>10</heading><tilt>45</tilt><range>1500</range><altitudeMode>relativeToGround</altitudeMode></LookAt>"
            ))
        #expect(
            kml.contains(
                #"<SimpleField name="grade" type="string"><displayName>Trail grade</displayName></SimpleField>"#))
        #expect(
            kml.contains("<color>7fffffff</color><drawOrder>2</drawOrder><Icon><href>files/old-map.png</href></Icon>"))
        #expect(
            kml.contains(
                "<Link><href>https://example.com/buses.kml</href><refreshMode>onInterval</refreshMode><refreshInterval>30</refreshInterval></Link>"
            ))
        #expect(!kml.contains("upsideDown"), "an unknown altitudeMode is not written")
        #expect(
            result.stderr.contains("rich.kml:30:3: warning: an empty Folder (\"Nothing here\") is not carried over"),
            "\(result.stderr)")
        #expect(result.stderr.contains("[kml.duplicate-id]") && result.stderr.contains("[kml.invalid-altitude-mode]"))
        // Through GeoJSON and back, the same KML.
        let geojson = try CLI.run([input, "-", "--to", "geojson"])
        let again = try CLI.run(["-", "-", "--from", "geojson", "--to", "kml"], stdin: geojson.stdout)
        #expect(again.stdout == kml)
        // info lists the same losses as the conversion, never "nothing lost" when something is.
        let info = try CLI.run(["info", input])
        // (files/old-map.png is not beside rich.kml: the KMZ could not pack it.)
        #expect(
            info.stdout.contains("to kmz: 3 kinds of loss beyond reading")
                && info.stdout.contains("[kml.duplicate-id]"), "\(info.stdout)")
        #expect(
            info.stdout.contains(#"rich.kml:38:3: warning: "files/old-map.png" is not a file beside the input"#),
            "\(info.stdout)")
        #expect(info.stdout.contains("[kml.empty-folder-dropped]"), "read warnings are listed too")
    }

    @Test("KMZ → KMZ carries the images inside the archive; other targets report them")
    func kmzImages() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("src/files"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.testdata("kml/rich.kml"), toPath: directory.appendingPathComponent("src/doc.kml").path)
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: directory.appendingPathComponent("src/files/old-map.png"))
        let zip = try CLI.run(
            [
                "-c",
                "cd \(directory.path)/src && python3 -c \"import zipfile; z=zipfile.ZipFile('../in.kmz','w'); z.write('doc.kml'); z.write('files/old-map.png'); z.close()\"",
            ],
            shell: true)
        #expect(zip.status == 0, "\(zip.stderr)")
        let input = directory.appendingPathComponent("in.kmz").path
        let output = directory.appendingPathComponent("out.kmz").path
        #expect(try CLI.run([input, output]).status == 0)
        let listing = try CLI.run(
            [
                "-c",
                "python3 -c \"import zipfile; z=zipfile.ZipFile('\(output)'); print(z.namelist(), list(z.read('files/old-map.png')))\"",
            ], shell: true)
        #expect(
            listing.stdout.contains("['doc.kml', 'files/old-map.png'] [137, 80, 78, 71, 1, 2, 3]"),
            "\(listing.stdout) \(listing.stderr)")
        let geojson = try CLI.run([input, directory.appendingPathComponent("out.geojson").path])
        #expect(
            geojson.stderr.contains(
                "1 file(s) carried inside the input (files/old-map.png) are not written: geojson cannot hold them"))
    }

    @Test("The same input gives the same bytes, every run and any --jobs")
    func deterministic() throws {
        let input = Fixtures.testdata("kml/rich.kml")
        for to in ["geojson", "geojsonseq", "kml", "wkt"] {
            let first = try CLI.run([input, "-", "--to", to, "--jobs", "1"]).stdout
            #expect(!first.isEmpty)
            for jobs in ["1", "2", "4"] {
                #expect(try CLI.run([input, "-", "--to", to, "--jobs", jobs]).stdout == first, "\(to) --jobs \(jobs)")
            }
        }
    }

    @Test("The sign of zero survives every text writer that can hold it (Greenwich data, bit-identical)")
    func negativeZero() throws {
        let point = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-0.0,51.4779,-0.0]}}"#
        let expected: [(String, String)] = [
            ("geojsonseq", "[-0,51.4779,-0]"), ("wkt", "POINT Z (-0 51.4779 -0)"),
            ("kml", "<coordinates>-0,51.4779,-0</coordinates>"), ("gpx", #"lon="-0"><ele>-0</ele>"#),
        ]
        for (format, text) in expected {
            let out = try CLI.run(["-", "-", "--from", "geojsonseq", "--to", format], stdin: point + "\n")
            #expect(out.status == 0 && out.stdout.contains(text), "\(format): \(out.stdout) \(out.stderr)")
            let back = try CLI.run(["-", "-", "--from", format, "--to", "wkb-hex"], stdin: out.stdout)
            // Little-endian WKB: -0.0 is 0000000000000080.
            #expect(back.stdout.contains("0000000000000080"), "\(format) read back: \(back.stdout) \(back.stderr)")
        }
        let rounded = try CLI.run(
            ["-", "-", "--from", "geojsonseq", "--to", "geojsonseq", "--precision", "3"],
            stdin: #"{"type":"Point","coordinates":[-0.0001,-0.0]}"# + "\n")
        #expect(
            rounded.stdout.contains("[0,-0]"),
            "a value that rounds to zero has no sign; -0.0 keeps its: \(rounded.stdout)")
    }

    @Test("--keep-geometry writes GeoJSON geometry exactly as read (no rewinding, no cut) and says it is not RFC 7946")
    func keepGeometry() throws {
        // A clockwise exterior ring (PostGIS's order) and a line past the antimeridian.
        let input = "POLYGON ((0 0,0 10,10 10,10 0,0 0))\nLINESTRING (170 0,190 10)\n"
        let rfc = try CLI.run(["-", "-", "--from", "wkt", "--to", "geojsonseq"], stdin: input)
        #expect(rfc.stdout.contains("[[[0,0],[10,0],[10,10],[0,10],[0,0]]]"), "RFC 7946 rewinds: \(rfc.stdout)")
        #expect(rfc.stdout.contains("MultiLineString"), "and cuts: \(rfc.stdout)")
        let kept = try CLI.run(["-", "-", "--from", "wkt", "--to", "geojsonseq", "--keep-geometry"], stdin: input)
        #expect(kept.status == 0)
        #expect(
            kept.stdout.contains("[[[0,0],[0,10],[10,10],[10,0],[0,0]]]")
                && kept.stdout.contains(#""LineString","coordinates":[[170,0],[190,10]]"#),
            "\(kept.stdout)")
        #expect(kept.stderr.contains("not RFC 7946") && kept.stderr.contains("[geojson.not-rfc7946]"), "\(kept.stderr)")
        let back = try CLI.run(["-", "-", "--from", "geojsonseq", "--to", "wkt"], stdin: kept.stdout)
        #expect(back.stdout == input, "a PostGIS round trip through GeoJSON keeps ring order: \(back.stdout)")
    }
}
