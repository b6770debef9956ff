@testable import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
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

    /// The last two selectors share `n`'s slot with the others and compare it through the
    /// general path: `IS NULL`, and text read as a number against a number (`n < '3'`).
    @Test("A property compared with a number, on either side, answers as WhereExpression.compare does")
    func numberComparisons() throws {
        let texts = ["n < 3", "3 > n", "3 <= n", "n = 2.5", "n <> 2", "2.5 = n", "n IS NULL", "n < '3'"]
        let selectors = try texts.map {
            (text) throws(GeoConvError) in try WhereExpression(text)
        }
        var program = WhereProgram(selectors)
        // (The keys in another order from feature to feature: `n` is looked for where the
        // feature before had it, then wherever it is.)
        let cases: [(JSONObject, [Bool])] = [
            // (Text against text compares as text: " 4 " sorts before "3".)
            (["a": 1, "n": 1], [true, true, false, false, true, false, false, true]),
            (["n": "2.5", "a": 1], [true, true, false, true, true, true, false, true]),
            (["n": " 4 "], [false, false, true, false, true, false, false, true]),
            (["a": 1, "b": 2, "n": "x"], [false, false, false, false, false, false, false, false]),
            (["n": .null], [false, false, false, false, false, false, true, false]),
            (["n": true], [true, true, false, false, true, false, false, true]),
            (["a": 1], [false, false, false, false, false, false, true, false]),
            (["N": 5, "a": 1], [false, false, true, false, true, false, false, false]),
            (["a": 1, "n": 2], [true, true, false, false, false, false, false, true]),
        ]
        var matched: [Bool] = []
        for (properties, answers) in cases {
            program.evaluate(Self.feature(properties), into: &matched)
            #expect(matched == answers, "\(properties)")
        }
    }

    /// Selectors that compare one property with numbers only are answered by region of the
    /// number line, each region's answers found once: every feature, in any order, must still
    /// get the answers each selector gives it alone, at the cuts, between them and past them.
    @Test("Selectors comparing one property with numbers answer as each alone, region by region")
    func numberRegions() throws {
        // (3 written twice, and 0 as -0: each cut once.)
        let texts = [
            "n < 3", "n <= 3", "n >= 3 AND n < 6", "NOT (n = 6)", "n > 6 OR n < -1", "n <> -0", "10 > n", "*",
            "n = 0",
        ]
        let selectors = try texts.map { (text) throws(GeoConvError) -> WhereExpression? in
            text == "*" ? nil : try WhereExpression(text)
        }
        var program = WhereProgram(selectors)
        #expect(program.answersByRegion)
        // (Another property, or a comparison with text, and the program evaluates feature by feature.)
        let mixed = try ["n < 3", "m > 1"].map { (text) throws(GeoConvError) in try WhereExpression(text) }
        #expect(!WhereProgram(mixed).answersByRegion)
        #expect(!WhereProgram([try WhereExpression("n < 3"), try WhereExpression("n = 'x'")]).answersByRegion)
        var alone = selectors.map { WhereProgram([$0]) }
        let literals = ["2.999", "3.001", "5.5", "-1.5", "-0.0", "1e300", "3.0e0"]
        let values: [JSONValue] =
            [3, 6, 7, -1, 0, 10, 11, "3", " 6 ", "x", .null, true, false]
            + literals.compactMap { JSONNumber(literal: $0).map(JSONValue.number) }
        #expect(values.count == 20)
        // (Seeded: the same order every run; each value met many times, after any other.)
        var generator = SplitMix64(seed: 47)
        for _ in 0..<400 {
            let value = values[Int(generator.next() % UInt64(values.count))]
            let feature = Self.feature(["a": 1, "n": value])
            let mask = program.mask(feature)
            for index in selectors.indices {
                let answer: UInt64 = alone[index].matches(feature) ? 1 : 0
                #expect((mask >> UInt64(index)) & 1 == answer, "\(texts[index]) \(value)")
            }
        }
        // A feature without the property, one with it under another case, and one whose
        // identifier is read for `id`: as each selector alone.
        var byID = WhereProgram([try WhereExpression("id < 3"), try WhereExpression("id >= 3")])
        #expect(byID.answersByRegion)
        let identified = Feature(id: .number(JSONNumber(4)), geometry: nil, properties: ["a": 1])
        #expect(byID.mask(identified) == 0b10)
        #expect(byID.mask(Self.feature(["id": 1])) == 0b01)
        for properties: JSONObject in [["a": 1], ["N": 4]] {
            let mask = program.mask(Self.feature(properties))
            for index in selectors.indices {
                #expect((mask >> UInt64(index)) & 1 == (alone[index].matches(Self.feature(properties)) ? 1 : 0))
            }
        }
    }

    @Test("Names String calls equal but written apart (NFC, NFD) are read apart, as one selector each reads them")
    func namesByBytes() throws {
        // `Café` (NFC) is found by `café` (NFC) through the case-folded comparison, which
        // compares bytes: `cafe` + U+0301 (NFD) is another name, and finds nothing.
        let nfc = try WhereExpression("caf\u{E9} = 1")
        let nfd = try WhereExpression("\"cafe\u{301}\" = 1")
        let feature = Self.feature(["Caf\u{E9}": 1])
        for order in [[nfc, nfd], [nfd, nfc]] {
            var program = WhereProgram(order)
            var matched: [Bool] = []
            program.evaluate(feature, into: &matched)
            var alone = [WhereProgram([order[0]]), WhereProgram([order[1]])]
            let answers = [alone[0].matches(feature), alone[1].matches(feature)]
            #expect(matched == answers)
        }
        var first = WhereProgram([nfc])
        var second = WhereProgram([nfd])
        let answers = (first.matches(feature), second.matches(feature))
        #expect(answers == (true, false))
    }
}
