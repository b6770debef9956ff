import Foundation
import GeoConvCSV
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvTestSupport
import Testing

/// CSV/TSV read and written: RFC 4180 quoting, delimiter sniffing, geometry from
/// longitude/latitude or WKT/WKB columns, GDAL-like typing, errors at their line and column,
/// and output GDAL reads back.
@Suite("CSV")
struct CSVTests {
    static func read(
        _ text: String, name: String = "in.csv", options: ConversionOptions = ConversionOptions()
    ) throws(GeoConvError)
        -> (features: [Feature], log: DiagnosticLog)
    {
        let log = DiagnosticLog()
        var reader = try CSVReader(
            ByteReader(.memory(Array(text.utf8), name: name)), options: CSVReadOptions(options), diagnostics: log)
        _ = try reader.readHeader()
        var features: [Feature] = []
        while let feature = try reader.next() { features.append(feature) }
        return (features, log)
    }

    static func write(
        _ features: [Feature], delimiter: UInt8 = UInt8(ascii: ",")
    ) throws(GeoConvError) -> (text: String, log: DiagnosticLog) {
        let output = try ByteWriter(.memory)
        let log = DiagnosticLog()
        var writer = CSVWriter(output, delimiter: delimiter, diagnostics: log)
        try writer.begin(DocumentHeader())
        for feature in features { try writer.write(feature) }
        try writer.finish()
        return (String(decoding: output.memoryContents, as: UTF8.self), log)
    }

    @Test(
        "RFC 4180: quoted delimiters, doubled quotes, line breaks in quotes, CRLF, a BOM; name/description as title/snippet"
    )
    func readsQuoting() throws {
        let (features, _) = try Self.read(
            String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("csv/points.csv"))), as: UTF8.self
            ))
        #expect(features.count == 3)
        #expect(features[0].title == #"Café, "Le Nord""# && features[0].snippet == "Two lines:\r\nfirst, second")
        // `ele` is an attribute: only a column the options name, or geoconv's own `altitude`
        // right after `latitude`, gives altitudes (issue 43: keys belong to the user).
        #expect(features[0].geometry == .point(Coordinate(latitude: 48.8566, longitude: 2.3522)))
        #expect(
            features[0].properties["count"] == 12
                && features[0].properties["ratio"] == .number(JSONNumber(literal: "0.5")!))
        #expect(features[0].properties["open"] == true && features[0].properties["code"] == "007")
        #expect(features[0].properties["lon"] == nil, "the geometry's columns are consumed")
        #expect(
            Array(features[0].properties.keys) == [
                "name", "ele", "description", "kind", "count", "ratio", "open", "code",
            ],
            "the title and snippet columns stay properties, in their places")
        #expect(features[0].properties["ele"] == 35 && features[0].properties["name"] == .string(#"Café, "Le Nord""#))
        #expect(features[1].geometry == .point(Coordinate(latitude: 51.5072, longitude: -0.1276)))
        #expect(features[1].properties["code"] == .null)
        #expect(features[2].geometry == nil, "empty longitude and latitude: no geometry")
    }

    @Test("The delimiter is sniffed from the header (outside quotes) or given; .tsv implies tab")
    func delimiters() throws {
        #expect(try Self.read("\"a,b\";lat;lon\nx;1;2\n").features.first?.properties["a,b"] == "x")
        #expect(try Self.read("lat|lon|v\n1|2|3\n").features.first?.properties["v"] == 3)
        var options = ConversionOptions()
        options.formatOptions[CSVOptions.delimiter] = "tab"
        #expect(try Self.read("lat,x\tlon\tv\n1\t2\t3\n", options: options).features.first?.properties["lat,x"] == 1)
        let tsv = FileFormat.csv.readerOptions(ConversionOptions(), for: .file("a/b.TSV"))
        #expect(tsv.formatOptions[CSVOptions.delimiter] == "tab")
        options.formatOptions[CSVOptions.delimiter] = "colon"
        #expect(throws: GeoConvError.self) { try Self.read("a\n", options: options) }
    }

    @Test("Geometry from a WKT or hex WKB column, or from the columns the options name; an altitude column")
    func geometryColumns() throws {
        let (shapes, _) = try Self.read(
            String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("csv/shapes.csv"))), as: UTF8.self
            ))
        #expect(shapes.map { $0.geometry?.kind } == [.lineString, .polygon, .point, nil])
        #expect(
            shapes[2].geometry == .point(Coordinate(latitude: 2, longitude: 1)) && shapes[0].properties["WKT"] == nil)
        var options = ConversionOptions()
        options.formatOptions[CSVOptions.longitude] = "E"
        options.formatOptions[CSVOptions.latitude] = "N"
        let (attribute, _) = try Self.read("N,E,Elevation\n51.5,-0.1,12\n", options: options)
        #expect(attribute.first?.geometry == .point(Coordinate(latitude: 51.5, longitude: -0.1)))
        #expect(attribute.first?.properties["Elevation"] == 12, "an attribute unless named")
        options.formatOptions[CSVOptions.altitude] = "elevation"
        let (named, _) = try Self.read("N,E,Elevation\n51.5,-0.1,12\n", options: options)
        #expect(named.first?.geometry == .point(Coordinate(latitude: 51.5, longitude: -0.1, altitude: 12)))
        #expect(named.first?.properties.isEmpty == true)
        options.formatOptions[CSVOptions.altitude] = nil
        options.formatOptions[CSVOptions.longitude] = "nope"
        #expect { try Self.read("N,E\n1,2\n", options: options) } throws: { ($0 as? GeoConvError)?.code == .usage }
        let (xy, _) = try Self.read("X,Y,geom_note\n3,4,a\n")
        #expect(xy.first?.geometry == .point(Coordinate(latitude: 4, longitude: 3)))
    }

    @Test("Typing as GDAL's AUTODETECT_TYPE, value by value; --csv-strings keeps text")
    func typing() throws {
        let text = "lat,lon,i,r,b,t,zip,e,big,plus\n1,2,-7,2.50,false,TRUE,0123,,12345678901234567890,+5\n"
        let properties = try #require(try Self.read(text).features.first?.properties)
        #expect(
            properties["i"] == -7 && properties["r"] == .number(JSONNumber(literal: "2.50")!)
                && properties["b"] == false)
        #expect(properties["t"] == "TRUE" && properties["zip"] == "0123" && properties["e"] == .null)
        #expect(properties["big"] == .number(JSONNumber(literal: "12345678901234567890")!) && properties["plus"] == 5)
        var options = ConversionOptions()
        options.formatOptions[CSVOptions.strings] = true
        let strings = try #require(try Self.read(text, options: options).features.first?.properties)
        #expect(strings["i"] == "-7" && strings["b"] == "false" && strings["e"] == .null)
    }

    @Test("A first line with a number in it is data (GDAL's HEADERS=AUTO): columns field_1…")
    func headerless() throws {
        let (features, log) = try Self.read("35.97, -87.13, Heaven\n36.05, -86.89, GittyUp\n")
        #expect(
            features.count == 2 && features[0].properties["field_3"] == " Heaven" && log.entries["csv.no-header"] != nil
        )
        var options = ConversionOptions()
        options.formatOptions[CSVOptions.longitude] = "field_2"
        options.formatOptions[CSVOptions.latitude] = "field_1"
        #expect(
            try Self.read("35.97, -87.13, Heaven\n", options: options).features.first?.geometry
                == .point(Coordinate(latitude: 35.97, longitude: -87.13)))
    }

    @Test("A feature with nothing to write in a one-column file is written as \"\", not a blank line, and read back")
    func emptyRow() throws {
        let polygon = Feature(
            geometry: .polygon(
                PolygonRings(
                    outer: Path([
                        Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                        Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 0, longitude: 0),
                    ]))))
        let (text, _) = try Self.write([polygon, Feature(geometry: nil), polygon])
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false)[2] == #""""#)
        let (back, _) = try Self.read(text)
        #expect(
            back.count == 3 && back[1].geometry == nil && back[1].properties.isEmpty
                && back[2].geometry == back[0].geometry)
    }

    @Test("Bad rows are errors at their line and column, or skipped and counted")
    func badRows() throws {
        // A long row keeps its extra fields as field_N, with a warning at the first of them.
        let (long, longLog) = try Self.read("lat,lon,v\n1,2,3\n1,2,3,4\n")
        #expect(long[1].properties["field_4"] == 4 && long[1].properties["v"] == 3)
        #expect(
            longLog.entries["csv.long-row"]?.first.location
                == SourceLocation(file: "in.csv", line: 3, column: 7, byteOffset: 22))
        // Every column keeps a name of its own: a repeated name skips the names the header gives
        // itself, and a long row's extra field skips a column named field_N.
        let (named, namedLog) = try Self.read("lat,lon,a,a,a_2,field_6\n1,2,x,y,z,w,extra\n")
        #expect(
            Array(named[0].properties.keys) == ["a", "a_3", "a_2", "field_6", "field_7"]
                && named[0].properties["a_3"] == "y"
                && named[0].properties["a_2"] == "z" && named[0].properties["field_6"] == "w"
                && named[0].properties["field_7"] == "extra")
        #expect(namedLog.entries["csv.duplicate-column-renamed"] != nil)
        let (clash, _) = try Self.read("lat,lon,field_4\n1,2,x,extra\n")
        #expect(clash[0].properties["field_4"] == "x" && clash[0].properties["field_4_2"] == "extra")
        // A short row is read as GDAL reads it: the missing fields null, with a warning at its end.
        let (short, shortLog) = try Self.read("lat,lon,v\n1,2\n")
        #expect(
            short.first?.properties["v"] == .null
                && short.first?.geometry == .point(Coordinate(latitude: 1, longitude: 2)))
        #expect(
            shortLog.entries["csv.short-row"]?.first.location
                == SourceLocation(file: "in.csv", line: 2, column: 4, byteOffset: 13))
        #expect { try Self.read("lat,lon,v\n1,east,3\n") } throws: {
            ($0 as? GeoConvError)?.location == SourceLocation(file: "in.csv", line: 2, column: 3, byteOffset: 12)
        }
        #expect { try Self.read("lat,lon,v\n1,2,\"open\n") } throws: {
            ($0 as? GeoConvError)?.location == SourceLocation(file: "in.csv", line: 2, column: 5, byteOffset: 14)
        }
        // A field after a line break inside a quoted field is placed on the later line.
        #expect { try Self.read("name,lat,lon\n\"two\nlines\",1,east\n") } throws: {
            ($0 as? GeoConvError)?.location == SourceLocation(file: "in.csv", line: 3, column: 10, byteOffset: 27)
        }
        #expect { try Self.read("id,WKT\n1,\"POINT (1 x)\"\n") } throws: {
            let error = $0 as? GeoConvError
            return error?.location?.line == 2 && error?.location?.column == 13
        }
        var options = ConversionOptions()
        options.skipInvalid = true
        let (features, log) = try Self.read("lat,lon,v\n1,2,3\n1,x,3\n1,y,3\n5,6,7\n", options: options)
        #expect(features.count == 2 && log.entries["csv.invalid-row-skipped"]?.count == 2)
    }

    @Test("Points as longitude/latitude(/altitude) columns; other geometries make one WKT column; RFC 4180 quoting; LF")
    func writes() throws {
        var a = Feature(
            geometry: .point(Coordinate(latitude: 2, longitude: 1, altitude: 3)), title: "A, \"one\"",
            snippet: " padded")
        a.properties = ["n": 1, "tags": ["x", "y"], "ok": true, "none": .null]
        let b = Feature(geometry: nil, properties: ["late": "3"])
        let (points, log) = try Self.write([a, b])
        #expect(
            points
                == "longitude,latitude,altitude,name,description,n,tags,ok,none,late\n1,2,3,\"A, \"\"one\"\"\",\" padded\",1,\"[\"\"x\"\",\"\"y\"\"]\",true,,\n,,,,,,,,,3\n"
        )
        #expect(log.entries["csv.nested-value-as-json"] != nil && log.entries["csv.text-reads-as-typed"] != nil)
        let line = Feature(
            geometry: .lineString([Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1)]))
        let (mixed, _) = try Self.write([a, line])
        #expect(
            mixed.hasPrefix("WKT,name,description,n,tags,ok,none\nPOINT Z (1 2 3),")
                && mixed.contains("\"LINESTRING (0 0,1 1)\""))
        let (tabs, _) = try Self.write(
            [Feature(geometry: .point(Coordinate(latitude: 2, longitude: 1)), properties: ["a\tb": "c d"])],
            delimiter: 0x09)
        #expect(tabs == "longitude\tlatitude\t\"a\tb\"\n1\t2\tc d\n")
    }

    @Test("Written CSV reads back the same features")
    func roundTrip() throws {
        let text = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("csv/points.csv"))), as: UTF8.self)
        let (features, _) = try Self.read(text)
        let (written, _) = try Self.write(features)
        #expect(try Self.read(written).features == features)
        let (shapes, _) = try Self.read(
            String(
                decoding: try Data(contentsOf: URL(fileURLWithPath: Fixtures.testdata("csv/shapes.csv"))), as: UTF8.self
            ))
        #expect(try Self.read(try Self.write(shapes).text).features == shapes)
    }

    @Test(
        "An altitude column named by the options whose value is not a number: the point without altitude, the text kept as a property"
    )
    func textAltitude() throws {
        var options = ConversionOptions()
        options.formatOptions[CSVOptions.altitude] = "height"
        let (features, log) = try Self.read("lat,lon,height\n48.1,11.5,98.470 m\n48.2,11.6,101.5\n", options: options)
        #expect(
            features[0].geometry == .point(Coordinate(latitude: 48.1, longitude: 11.5))
                && features[0].properties["height"] == "98.470 m")
        #expect(
            features[1].geometry == .point(Coordinate(latitude: 48.2, longitude: 11.6, altitude: 101.5))
                && features[1].properties["height"] == nil)
        #expect(
            log.entries["csv.altitude-not-number"]?.first.location
                == SourceLocation(file: "in.csv", line: 2, column: 11, byteOffset: 25))
    }

    @Test("Lines ended by CR alone (old Mac OS exports) are rows, as GDAL reads them; errors keep their lines")
    func crOnlyLines() throws {
        let (features, log) = try Self.read("name,lat,lon\rA,1,2\r\"B\rC\",3,4\r\rD,5,6")
        #expect(features.map(\.title) == ["A", "B\nC", "D"])
        #expect(
            features.map(\.geometry) == [
                .point(Coordinate(latitude: 1, longitude: 2)), .point(Coordinate(latitude: 3, longitude: 4)),
                .point(Coordinate(latitude: 5, longitude: 6)),
            ])
        #expect(log.entries["csv.cr-line-ends"]?.first.isNote == true)
        #expect { try Self.read("name,lat,lon\rA,1,2\rB,x,4\r") } throws: { error in
            (error as? GeoConvError)?.location?.line == 3
        }
        // CRLF and LF files are not touched: a lone CR inside a field stays text.
        let (crlf, crlfLog) = try Self.read("name,lat,lon\r\nA\rB,1,2\r\n")
        #expect(crlf.first?.title == "A\rB" && crlfLog.entries["csv.cr-line-ends"] == nil)
    }

    @Test("UTF-16 text (a byte order mark, either order) is refused with a clear error, as GDAL refuses it")
    func utf16Refused() throws {
        for mark: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF]] {
            let bytes = mark + Array("n\0a\0".utf8)
            #expect {
                var reader = try CSVReader(ByteReader(.memory(bytes, name: "u16.csv")), diagnostics: DiagnosticLog())
                _ = try reader.readHeader()
            } throws: { error in
                let error = error as? GeoConvError
                return error?.code == .unsupported && error?.message.contains("UTF-16") == true
                    && error?.hint?.contains("iconv") == true
            }
        }
    }
}
