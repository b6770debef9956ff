import GeoConvCore
import GeoConvFormatKit
import GeoConvGeoJSON
import Testing

@Suite("GeoJSON writing: simplestyle members")
struct GeoJSONStyleTests {
    /// The members of a style written once and reused for the features styled alike, after
    /// each feature's own properties: also where a property is added after them (a circle's
    /// radius) or before them (a title), and where the feature already says one of them.
    @Test("Features styled alike get their style's members after their own, in order")
    func stylesReused() throws {
        func feature(_ geometry: Geometry, _ properties: JSONObject, _ colour: Color) -> Feature {
            var feature = Feature(geometry: geometry, properties: properties)
            feature.style.markerColor = colour
            feature.style.iconScale = 1.5
            return feature
        }
        func titled(_ feature: Feature) -> Feature {
            var feature = feature
            feature.title = "Seven"
            return feature
        }
        let here = Coordinate(latitude: 1, longitude: 2)
        let features = [
            feature(.point(here), ["n": 1], .red),
            feature(.circle(center: here, radius: 10), ["n": 2], .red),
            feature(.point(here), [:], .red),
            feature(.point(here), ["marker-color": "red", "n": 4], .red),
            feature(.point(here), ["n": 5], .blue),
            feature(.point(here), ["n": 6], .red),
            titled(feature(.point(here), ["n": 7], .red)),
        ]
        let (text, _) = try writeGeoJSON(features)
        let properties = text.split(separator: "\n").dropFirst().dropLast().map { line in
            line.drop { $0 != "{" }.dropFirst().drop { $0 != "{" }.prefix { $0 != "}" } + "}"
        }
        #expect(
            properties == [
                ##"{"n":1,"marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"n":2,"marker-color":"#ff0000","icon-scale":1.5,"geoconv:radius":10}"##,
                ##"{"marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"marker-color":"red","n":4,"icon-scale":1.5}"##,
                ##"{"n":5,"marker-color":"#0000ff","icon-scale":1.5}"##,
                ##"{"n":6,"marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"n":7,"name":"Seven","marker-color":"#ff0000","icon-scale":1.5}"##,
            ], "\(text)")
    }

    /// Features given one style box (as style rules give it): the members are taken from
    /// the last feature's at once only where nothing of the feature's own changes them — a
    /// property naming a style field, a title — and each feature writes what it writes alone.
    @Test("Features sharing one style box write what each writes alone")
    func sharedStyleBox() throws {
        var styled = Feature(geometry: .point(Coordinate(latitude: 1, longitude: 2)))
        styled.style.markerColor = .red
        styled.style.iconScale = 1.5
        func sharing(_ properties: JSONObject, title: String? = nil, snippet: String? = nil) -> Feature {
            var feature = styled  // (the style's box shared, not copied)
            feature.properties = properties
            feature.title = title
            feature.snippet = snippet
            return feature
        }
        let features = [
            sharing(["n": 1]), sharing(["marker-color": "red", "n": 2]), sharing(["n": 3]),
            sharing(["n": 4], title: "Four"), sharing(["n": 5]), sharing(["icon-scale": 2, "n": 6]),
            sharing(["n": 7], snippet: "Seven"),
        ]
        #expect(features.allSatisfy { $0.style.boxIdentity == styled.style.boxIdentity })
        func properties(_ text: String) -> [Substring] {
            text.split(separator: "\n").dropFirst().dropLast().map { line in
                line.drop { $0 != "{" }.dropFirst().drop { $0 != "{" }.prefix { $0 != "}" } + "}"
            }
        }
        let together = properties(try writeGeoJSON(features).0)
        let alone = try features.map { properties(try writeGeoJSON([$0]).0).first ?? "" }
        #expect(together == alone)
        #expect(
            together == [
                ##"{"n":1,"marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"marker-color":"red","n":2,"icon-scale":1.5}"##,
                ##"{"n":3,"marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"n":4,"name":"Four","marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"n":5,"marker-color":"#ff0000","icon-scale":1.5}"##,
                ##"{"icon-scale":1.5,"n":6,"marker-color":"#ff0000"}"##,
                ##"{"n":7,"description":"Seven","marker-color":"#ff0000","icon-scale":1.5}"##,
            ])
    }
}
