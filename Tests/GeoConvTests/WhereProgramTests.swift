@testable import GeoConv
import GeoConvCore
import GeoConvFormatKit
import Testing

/// Selectors evaluated together, each property read once per feature: every selector's
/// answer on each feature is its own, whatever the feature before held.
@Suite("Where programs")
struct WhereProgramTests {
    static let selectors = [
        "n < 3", "n >= 3 AND n < 6", "kind IS NULL", "kind IN ('park', 'road') OR n = 9", "kind LIKE 'p%'",
        "NOT (n > 1)", "name = 'Lake'",
    ]

    static func feature(_ properties: JSONObject, title: String? = nil) -> Feature {
        Feature(geometry: nil, title: title, properties: properties)
    }

    @Test("Each selector answers for the feature at hand, not from the one before")
    func answers() throws {
        let parsed = try Self.selectors.map { (text) throws(GeoConvError) in try WhereExpression(text) }
        var program = WhereProgram(parsed + [nil])
        #expect(program.count == 8)
        let features = [
            Self.feature(["n": 1, "kind": "park"]),
            Self.feature(["n": 4]),
            Self.feature(["n": 9, "kind": "lake"], title: "Lake"),
            Self.feature([:]),
            Self.feature(["kind": "road", "n": "2"]),
        ]
        let expected: [[Bool]] = [
            [true, false, false, true, true, true, false, true],
            [false, true, true, false, false, false, false, true],
            [false, false, false, true, false, false, true, true],
            // (`NOT (n > 1)` without `n`: the comparison is false, its negation true, as
            // ogr2ogr 3.6.2 answers.)
            [false, false, true, false, false, true, false, true],
            [true, false, false, true, false, false, false, true],
        ]
        var matched: [Bool] = []
        for (feature, answers) in zip(features, expected) {
            program.evaluate(feature, into: &matched)
            #expect(matched == answers, "\(feature.properties)")
        }
        // A program of one, as --where uses it: the same answers as the first selector.
        var first = WhereProgram([parsed[0]])
        #expect(features.map { first.matches($0) } == expected.map { $0[0] })
    }
}
