import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

/// `info` writes a feature for a target once per loss key (`LossKeyedWriter.lossKey`) and counts
/// the codes again for the others: its report must be the one it makes writing every feature,
/// line for line, on inputs made to tempt the keys — runs of features of one shape whose
/// values differ within their class (digit counts, widths, texts that read as numbers, a
/// decimal that rounds up, control characters, dates), columns whose kinds change between
/// runs, points at ±180 and beyond, altitudes met late, titles carried or not, ids.
@Suite("info's losses counted once per key")
struct InspectionMemoTests {
    /// Features in runs of one template: the same keys, the same kinds of value, the same
    /// kind of geometry, as GeoJSON text.
    struct RunGenerator {
        var random: SplitMix64

        init(seed: UInt64) { random = SplitMix64(seed: seed) }

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

        enum Kind: CaseIterable { case null, bool, integer, decimal, other, text }
        enum Shape: CaseIterable { case none, point, pointZ, edgePoint, line, polygon, multi, empty, collection }

        struct Template {
            var keys: [(String, Kind)]
            var shape: Shape
            var title: Bool, snippet: Bool, id: Int, style: Bool
        }

        mutating func template() -> Template {
            let names = ["id", "name", "description", "pop", "Pop", "kind", "when", "icon", "altitudeMode", "note"]
            var keys: [(String, Kind)] = []
            for name in names where chance(0.35) { keys.append((name, pick(Kind.allCases))) }
            return Template(
                keys: keys, shape: pick(Shape.allCases), title: chance(0.2), snippet: chance(0.15),
                id: int(0...2), style: chance(0.1))
        }

        mutating func digits(_ count: Int) -> String {
            var text = String(int(1...9))
            for _ in 1..<max(1, count) { text += String(int(0...9)) }
            return text
        }

        mutating func value(_ kind: Kind) -> String {
            switch kind {
            case .null: return "null"
            case .bool: return chance(0.5) ? "true" : "false"
            case .integer: return (chance(0.3) ? "-" : "") + (chance(0.1) ? "0" : digits(int(1...12)))
            case .decimal:
                return pick(["9.99", "0.5", "1.50", "-0.0", "99.95", "-3.25", "0.000123"])
                    + (chance(0.5) ? digits(int(1...3)) : "")
            case .other: return pick(["1e3", "-0", "12345678901234567890", "1.25E-2", "9007199254740993"])
            case .text:
                var text = ""
                for _ in 0..<int(0...(chance(0.1) ? 300 : 12)) { text += String(pick(Array("abcxyz 09.-"))) }
                return "\""
                    + pick([
                        text, digits(int(1...4)), "true", "2024-05-17", "2024-05-17T08:30:00.000Z", " pad",
                        "a\\u0001b", "tab\\tend", "\\uFFFE", "é", "<&>", "",
                    ]) + "\""
            }
        }

        mutating func position(z: Bool) -> String {
            let lon = Double(int(-179_000...179_000)) / 1000 + (chance(0.5) ? 0.000001 * Double(int(1...9)) : 0)
            let lat = Double(int(-80_000...80_000)) / 1000
            return "[\(lon),\(lat)\(z ? ",\(int(0...900))" : "")]"
        }

        mutating func geometry(_ shape: Shape) -> String {
            switch shape {
            case .none: return "null"
            case .point: return #"{"type":"Point","coordinates":\#(position(z: chance(0.05)))}"#
            case .pointZ: return #"{"type":"Point","coordinates":\#(position(z: true))}"#
            case .edgePoint:
                return #"{"type":"Point","coordinates":\#(pick(["[180,1]", "[-180,2]", "[200,3]", "[0,90]"]))}"#
            case .line:
                let z = chance(0.2)
                return #"{"type":"LineString","coordinates":[\#(position(z: z)),\#(position(z: z))]}"#
            case .polygon:
                return #"{"type":"Polygon","coordinates":[[[0,0],[\#(int(1...5)),0],[1,1],[0,0]]]}"#
            case .multi:
                let z = chance(0.2)
                return #"{"type":"MultiPoint","coordinates":[\#(position(z: z)),\#(position(z: !z && chance(0.3)))]}"#
            case .empty: return #"{"type":"Point","coordinates":[]}"#
            case .collection:
                return #"{"type":"GeometryCollection","geometries":[\#(geometry(.point))]}"#
            }
        }

        mutating func feature(_ template: Template) -> String {
            var members: [String] = []
            for (key, kind) in template.keys { members.append("\"\(key)\":\(value(kind))") }
            if template.title, !template.keys.contains(where: { $0.0 == "name" }) {
                members.append(#""name":"\#(pick(["A", "1", "x\\u0001"]))""#)
            }
            if template.snippet, !template.keys.contains(where: { $0.0 == "description" }) {
                members.append(#""description":"about""#)
            }
            if template.style { members.append(#""stroke":"\#(pick(["#ff0000", "#00ff00"]))""#) }
            var text = #"{"type":"Feature","#
            switch template.id {
            case 1: text += #""id":\#(value(.integer)),"#
            case 2: text += #""id":"f\#(int(0...20))","#
            default: break
            }
            return text + #""properties":{\#(members.joined(separator: ","))},"geometry":\#(geometry(template.shape))}"#
        }

        /// A collection of runs: each of one template, a few templates met again later.
        mutating func collection(features count: Int) -> String {
            var templates: [Template] = []
            var features: [String] = []
            while features.count < count {
                let template = templates.isEmpty || chance(0.6) ? template() : pick(templates)
                templates.append(template)
                for _ in 0..<int(1...40) { features.append(feature(template)) }
            }
            return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ",\n"))]}"#
        }
    }

    /// The report with every feature written to every target, and with the memo.
    static func reports(_ text: String, jobs: Int) throws -> (written: InspectionReport, counted: InspectionReport) {
        let input = InputSource.memory(Array(text.utf8), name: "generated.geojson")
        var options = ConversionOptions()
        options.jobs = jobs
        var writing = Converter()
        writing.memoizesLosses = false
        return (try writing.inspect(input, options: options), try Converter().inspect(input, options: options))
    }

    @Test("Seeded runs of features: the report counted per key is the report written", arguments: 0..<24)
    func countedPerKeyIsWritten(_ seed: Int) throws {
        var generator = RunGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        let text = generator.collection(features: 600)
        for jobs in [1, 2] {
            let (written, counted) = try Self.reports(text, jobs: jobs)
            #expect(counted.readWarnings == written.readWarnings, "seed \(seed), jobs \(jobs)")
            for (format, losses) in written.losses {
                #expect(counted.losses[format] == losses, "seed \(seed), jobs \(jobs), \(format)")
            }
            #expect(counted.losses.keys.elementsEqual(written.losses.keys))
            // (Properties of a shape's later features are counted from the shape: the same
            // names, in first-seen order, with the same counts and types.)
            #expect(counted.properties == written.properties, "seed \(seed), jobs \(jobs)")
        }
    }

    @Test("A run of one shape is counted once per key: the repeats' codes counted again, exactly")
    func repeatsCountedExactly() throws {
        // 300 points of one shape (a three-digit id), then 5 with a text id, then 300 more: every
        // target's counts must be the written ones (wkt drops 605 features' attributes, wkb
        // refuses 604 geometries, polyline rounds the points not on its grid).
        var features: [String] = []
        for i in 0..<605 {
            let id = i >= 300 && i < 305 ? #""x\#(i)""# : String(100 + i % 800)
            let lon = i % 3 == 0 ? "12.5" : "12.345678"
            features.append(
                #"{"type":"Feature","properties":{"id":\#(id)},"geometry":{"type":"Point","coordinates":[\#(lon),4]}}"#)
        }
        let text = #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ",\n"))]}"#
        let (written, counted) = try Self.reports(text, jobs: 1)
        #expect(counted.losses == written.losses)
        #expect(counted.losses["wkt"]?.last?.hasSuffix("[wkt.attributes-dropped] (605 times)") == true)
        #expect(counted.losses["wkb"]?.last?.hasSuffix("[wkb.refused] (604 times)") == true)
        #expect(
            counted.losses["polyline"]?.contains { $0.hasSuffix("[polyline.coordinates-rounded] (403 times)") } == true,
            "\(counted.losses["polyline"] ?? [])")
        #expect(counted.losses["kml"]?.contains { $0.contains("[kml.mixed-types]") } == true)
    }

    @Test("Numbers known by their form alone share a class: distinct long integers of one sign, one shape")
    func otherNumbersShareAShape() throws {
        var shaper = FeatureShaper()
        for literal in ["12345678901234", "98765432109876", "1e3", "2.5e-3", "-0", "-12345678901234"] {
            var feature = Feature(geometry: .point(Coordinate(latitude: 1, longitude: 2)))
            feature.properties["n"] = .number(JSONNumber(uncheckedLiteral: literal))
            shaper.add(feature)
        }
        let shapes = FeatureShapeTable().shapes(of: shaper)
        #expect(shapes.allSatisfy { $0?.facts.contains(.hasOtherNumber) == true })
        // Integers of ten digits and more by sign; exponents apart; a negative zero as a negative integer.
        #expect(shapes[0] == shapes[1] && shapes[2] != shapes[0] && shapes[3] != shapes[2])
        #expect(shapes[4] == shapes[5] && shapes[4] != shapes[0])
    }

    @Test("Beyond the table's limit a new shape is none: memory does not grow with the input")
    func shapesAreBounded() throws {
        var shaper = FeatureShaper()
        for index in 0..<(FeatureShapeTable.limit + 10) {
            var feature = Feature(geometry: nil)
            feature.properties["k\(index)"] = .null
            shaper.add(feature)
        }
        let shapes = FeatureShapeTable().shapes(of: shaper)
        #expect(shapes.prefix(FeatureShapeTable.limit).allSatisfy { $0 != nil })
        #expect(shapes.dropFirst(FeatureShapeTable.limit).allSatisfy { $0 == nil })
        #expect(Set(shapes.compactMap { $0?.number }).count == FeatureShapeTable.limit)
    }
}
