import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// What the conservation check found in real files (gpsbabel's KML, map georeferencers'
/// KMZ), each as a hand-written fixture.
@Suite("KML findings of the conservation check")
struct KMLFindingsTests {
    static func convert(_ kml: String, to format: FileFormat) throws -> ConversionReport {
        try Converter().convert(
            .memory(Array(kml.utf8), name: "in.kml"), to: .memory,
            options: ConversionOptions(outputFormat: format))
    }

    static let header =
        #"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2" "#
        + #"xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>"#

    @Test("A gx:Track's <when/> is a position without a time: the times stay matched to the positions")
    func trackWithoutSomeTimes() throws {
        let kml =
            Self.header + #"""
                <Schema id="s"><gx:SimpleArrayField name="hr" type="int"><displayName>Heart rate</displayName>
                </gx:SimpleArrayField></Schema>
                <Placemark><name>T</name><gx:Track><when/><when>2020-01-01T00:00:01Z</when><when></when>
                <gx:coord>1 2</gx:coord><gx:coord>3 4</gx:coord><gx:coord>5 6</gx:coord>
                <ExtendedData><SchemaData schemaUrl="#s"><gx:SimpleArrayData name="hr">
                <gx:value>60</gx:value><gx:value>61</gx:value><gx:value>62</gx:value>
                </gx:SimpleArrayData></SchemaData></ExtendedData></gx:Track></Placemark></Document></kml>
                """#
        let features = try readKML(text: kml)
        let perPoint = try #require(features.first?.properties["coordinateProperties"]?.objectValue)
        #expect(perPoint["times"] == .array([.null, "2020-01-01T00:00:01Z", .null]))
        #expect(perPoint["hr"] == .array([60, 61, 62]))

        // No gx:Track of the OGC schema holds a position without a time: a LineString with the
        // times as data, said so, and the array field still declared with its display name.
        let report = try Self.convert(kml, to: .kml)
        let text = String(decoding: report.output, as: UTF8.self)
        #expect(report.diagnostics.entries["kml.track-times-as-data"]?.first.isNote == false)
        #expect(!text.contains("<when/>") && !text.contains("<gx:Track>") && text.contains("<LineString>"))
        #expect(
            text.contains(#"<gx:SimpleArrayField name="hr" type="int"><displayName>Heart rate</displayName>"#),
            "\(text)")
        if XMLSchemaValidation.hasKMLSchema {
            #expect(XMLSchemaValidation.errors(in: report.output, schema: XMLSchemaValidation.kmlSchema).isEmpty)
        }
        let back = try readKML(text: text)
        #expect(back.first?.properties["coordinateProperties"]?.objectValue == perPoint)
        #expect(back.first?.geometry == features.first?.geometry)
    }

    @Test("A placemark's inline Style that changes the shared style it names makes a style of its own")
    func mergedStyle() throws {
        let kml =
            Self.header + #"""
                <Style id="line"><LineStyle><color>99ffac59</color><width>6</width></LineStyle></Style>
                <Style id="only-merged"><LineStyle><color>ff112233</color></LineStyle></Style>
                <Placemark><name>plain</name><styleUrl>#line</styleUrl><LineString><coordinates>0,0 1,1</coordinates>
                </LineString></Placemark>
                <Placemark><name>merged</name><styleUrl>#line</styleUrl><Style><LineStyle><color>ff0000ff</color>
                <width>4</width></LineStyle></Style><LineString><coordinates>0,0 2,2</coordinates></LineString></Placemark>
                <Placemark><name>merged too</name><styleUrl>#only-merged</styleUrl><Style><LineStyle><width>2</width>
                </LineStyle></Style><LineString><coordinates>0,0 3,3</coordinates></LineString></Placemark>
                </Document></kml>
                """#
        let report = try Self.convert(kml, to: .kml)
        let text = String(decoding: report.output, as: UTF8.self)
        // The shared style keeps its name and its own values; the merged one is another style.
        #expect(text.contains(#"<Style id="line"><LineStyle><color>99ffac59</color><width>6</width>"#), "\(text)")
        #expect(!text.contains(#"<Style id="line"><LineStyle><color>ff0000ff</color>"#))
        let merged = try #require(report.diagnostics.entries["kml.style-merged"])
        #expect(merged.count == 2 && merged.first.location?.line == 5, "\(merged.first)")
        // A shared style used only merged is not written as itself, and that is said where it is.
        let unused = try #require(report.diagnostics.entries["kml.unused-style-dropped"])
        #expect(unused.first.message.contains("\"only-merged\"") && unused.first.location?.line == 2)
        let back = try readKML(text: text)
        #expect(back.map(\.style.strokeColor) == [Color(kml: "99ffac59"), .red, Color(kml: "ff112233")])
        #expect(back.map(\.style.strokeWidth) == [6, 4, 2])
        #expect(back[0].properties["styleUrl"] == "#line" && back[1].properties["styleUrl"] != "#line")
    }

    @Test("An overlay's <Icon> holding its URL as text (KML 2.0's form) is read as its href")
    func iconAsText() throws {
        let kml =
            Self.header + #"""
                <ScreenOverlay><Icon>https://example.com/logo.png</Icon>
                <screenXY x="0" y="0" xunits="fraction" yunits="fraction"/></ScreenOverlay></Document></kml>
                """#
        let features = try readKML(text: kml)
        #expect(features.first?.properties["icon"] == "https://example.com/logo.png")
        let text = String(decoding: try Self.convert(kml, to: .kml).output, as: UTF8.self)
        #expect(text.contains("<Icon><href>https://example.com/logo.png</href></Icon>"), "\(text)")
    }

    @Test("A view's longitude beyond ±180 (gpsbabel's 186.5) is the same meridian, read wrapped and said so")
    func viewLongitudeWrapped() throws {
        let kml =
            Self.header + #"""
                <LookAt><longitude>186.5</longitude><latitude>40</latitude><range>1000</range></LookAt>
                <Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>
                """#
        let report = try Self.convert(kml, to: .kml)
        let text = String(decoding: report.output, as: UTF8.self)
        #expect(text.contains("<longitude>-173.5</longitude>"), "\(text)")
        let wrapped = try #require(report.diagnostics.entries["kml.view-longitude-wrapped"])
        #expect(wrapped.count == 1 && wrapped.first.location?.line == 1 && !wrapped.first.isNote)
        if XMLSchemaValidation.hasKMLSchema {
            #expect(XMLSchemaValidation.errors(in: report.output, schema: XMLSchemaValidation.kmlSchema).isEmpty)
        }
    }
}
