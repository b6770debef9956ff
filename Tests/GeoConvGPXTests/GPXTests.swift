import Foundation
import GeoConvCore
import GeoConvFormatKit
import GeoConvGPX
import GeoConvIO
import GeoConvTestSupport
import Testing

/// GPX 1.0/1.1 read and written: waypoints, routes, tracks with times and elevations,
/// metadata, extensions; output valid against GPX 1.1's schema and read by GDAL.
@Suite("GPX")
struct GPXTests {
    static let schema = Fixtures.testdata("gpx/schema/gpx11.xsd")

    static func read(
        _ input: InputSource, skipInvalid: Bool = false
    ) throws(GeoConvError)
        -> (header: DocumentHeader, features: [Feature], log: DiagnosticLog)
    {
        var options = ConversionOptions()
        options.skipInvalid = skipInvalid
        let read = try FormatIO.read(try ByteReader(input), as: .gpx, options: options)
        return (read.header, read.features, read.diagnostics)
    }

    @Test("A GPX 1.1 track with waypoints, a route and metadata reads as the overlay model")
    func readsHike() throws {
        let (header, features, _) = try Self.read(.file(Fixtures.testdata("gpx/hike.gpx")))
        #expect(header.name == "Mount Tamalpais loop" && header.description == "Morning hike & picnic")
        let metadata = try #require(header.foreignMembers["gpx:metadata"]?.objectValue)
        #expect(metadata["time"] == "2026-05-02T07:55:00Z" && metadata["keywords"] == "hike, marin")
        #expect(metadata["author"]?.objectValue?["email"]?.objectValue?["@domain"] == "example.org")
        #expect(metadata["links"] == [["href": "https://example.org/hikes/42", "text": "Trip report"]])
        #expect(features.count == 4)

        let peak = features[0]
        #expect(peak.geometry == .point(Coordinate(latitude: 37.9236, longitude: -122.5965, altitude: 784.5)))
        #expect(peak.title == "East Peak" && peak.snippet == "Gardner Lookout" && peak.style.markerSymbol == "Summit")
        #expect(peak.properties["timestamp"] == "2026-05-02T09:12:30Z" && peak.properties["cmt"] == "summit register")
        #expect(
            peak.properties["sat"] == 9 && peak.properties["hdop"]?.doubleValue == 0.8
                && peak.properties["type"] == "peak")
        let picnic = features[1].properties["extensions"]?.objectValue?["TrackPointExtension"]?.objectValue
        #expect(
            picnic?["atemp"] == "18.5" && picnic?["@xmlns"] == "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
        )

        let route = features[2]
        #expect(
            route.geometry
                == .lineString(
                    Path([
                        Coordinate(latitude: 37.905, longitude: -122.61),
                        Coordinate(latitude: 37.9236, longitude: -122.5965),
                    ])))
        #expect(route.properties["number"] == 1)
        #expect(route.properties["coordinateProperties"]?.objectValue?["name"] == ["Start", "Peak"])

        let track = features[3]
        guard case .multiLineString(let lines)? = track.geometry else {
            Issue.record("the track is \(String(describing: track.geometry))")
            return
        }
        #expect(lines.map(\.count) == [2, 3])
        #expect(lines[1].map(\.altitude) == [650.75, 784.5, 783])
        let perPoint = try #require(track.properties["coordinateProperties"]?.objectValue)
        #expect(
            perPoint["times"] == [
                ["2026-05-02T08:00:00Z", "2026-05-02T08:20:00Z"],
                ["2026-05-02T08:45:10.5Z", "2026-05-02T09:12:00Z", "2026-05-02T09:14:00Z"],
            ])
        // Garmin's TrackPointExtension: per-point values named as KML's gx:SimpleArrayData.
        #expect(perPoint["heartrate"] == [[98, 131], [.null, .null, .null]])
        #expect(perPoint["extensions"] == nil)
    }

    @Test("GPX 1.0: header fields, url/urlname links, course and speed")
    func readsVersion10() throws {
        let (header, features, _) = try Self.read(.file(Fixtures.testdata("gpx/gpx10.gpx")))
        #expect(header.name == "Old survey")
        let metadata = try #require(header.foreignMembers["gpx:metadata"]?.objectValue)
        #expect(metadata["author"] == ["name": "Surveyor", "email": ["@id": "s", "@domain": "example.org"]])
        #expect(metadata["links"] == [["href": "http://example.org/survey", "text": "Survey page"]])
        #expect(features[0].properties["links"] == [["href": "http://example.org/5066", "text": "Crossing"]])
        #expect(features[0].snippet == "5066" && features[0].properties["type"] == "Crossing")
        #expect(
            features[1].properties["coordinateProperties"]?.objectValue?["speed"].map(JSONText.string) == "[[1.25,1.5]]"
        )
    }

    @Test("Entities are refused, and a document that is not GPX says so")
    func refusals() throws {
        let entity =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY x \"y\">]>\n<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>&x;</name></wpt></gpx>\n"
        #expect {
            _ = try Self.read(.memory(Array(entity.utf8), name: "e.gpx"))
        } throws: { error in
            (error as? GeoConvError)?.code == .limitExceeded && (error as? GeoConvError)?.location?.line == 2
        }
        #expect {
            _ = try Self.read(.memory(Array("<kml/>".utf8), name: "k.gpx"))
        } throws: { error in
            (error as? GeoConvError)?.code == .invalidInput
                && (error as? GeoConvError)?.message == "the root element is <kml>, not <gpx>"
        }
    }

}
