import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// The conservation check (`geoconv conservation`, `scripts/conservation`): every value read
/// from a file reaches a same-format round trip's output or is named by a warning.
@Suite struct ConservationTests {
    private func value(
        _ text: String, line: Int, column: Int = 1, enclosing: [ListedValue.Position] = [],
        pointer: String? = nil, kind: ListedValue.Kind = .plain
    ) -> ListedValue {
        ListedValue(text: text, line: line, column: column, enclosing: enclosing, pointer: pointer, kind: kind)
    }

    @Test func matchingComparesNumbersByValueAndTextWithWhiteSpaceCollapsed() {
        #expect(ListedValue.matchKey("1.50") == ListedValue.matchKey("1.5e0"))
        #expect(ListedValue.matchKey("0.3333333333333333") == ListedValue.matchKey("0.33333333333333331"))
        #expect(ListedValue.matchKey("-0") == ListedValue.matchKey("0"))
        #expect(ListedValue.matchKey("  two\n  words ") == "two words")
        #expect(ListedValue.matchKey("inf") == "inf")  // not a number in these formats
        // Integers past a Double's exact digits are compared digit by digit.
        #expect(ListedValue.matchKey("12345678901234567890") != ListedValue.matchKey("12345678901234567891"))
    }

    @Test func valuesMissingFromTheOutputAreReportedOnlyByAWarningAtTheirPlace() {
        let place = ListedValue.Position(line: 3, column: 5)
        let input = [
            value("kept", line: 2), value("dropped, warned at its element", line: 4, enclosing: [place]),
            value("dropped silently", line: 9, enclosing: [ListedValue.Position(line: 9, column: 1)]),
            value("json", line: 12, pointer: "/features/0/properties/a"),
            value("#a", line: 13, kind: .renamable), value("ff0000ff", line: 14, kind: .shared),
            value("ff0000ff", line: 15, kind: .shared),
            value("1", line: 16),
        ]
        let output = [
            value("kept", line: 1), value("#geoconv-1", line: 1, kind: .renamable), value("ff0000ff", line: 1),
            value("true", line: 1),
        ]
        let warnings = [
            Diagnostic(code: "x.dropped", message: "dropped", location: SourceLocation(line: 3, column: 5)),
            Diagnostic(
                code: "x.json", message: "dropped", location: SourceLocation(line: 1, column: 1, pointer: "/features/0")
            ),
            Diagnostic(
                code: "x.note", message: "nothing lost", location: SourceLocation(line: 9, column: 1), isNote: true),
        ]
        let result = ConservationCheck().compare(
            path: "f", format: "kml", input: input, output: output, warnings: warnings)
        #expect(result.read == 8)
        #expect(result.carried == 5)  // kept, #a (renamed), both shared colours, 1 as true
        #expect(result.reported == 2)
        #expect(result.lostSilently.map(\.text) == ["dropped silently"])  // a note reports no loss
    }

    @Test("By address: a moved hole, re-cased key or retyped value is a change, silent unless warned of")
    func structuralHalfComparesByAddress() throws {
        let shell = Path([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 10),
            Coordinate(latitude: 10, longitude: 10), Coordinate(latitude: 0, longitude: 0),
        ])
        let hole = Path([
            Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 2, longitude: 1),
            Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 1, longitude: 1),
        ])
        let first = ComparedFeature(
            properties: [("Name", .string("a")), ("pop", .number(JSONNumber(12)))],
            geometry: .polygon(PolygonRings(outer: shell, holes: [hole])))
        let second = ComparedFeature(properties: [("Name", .string("b"))], geometry: .point(shell[0]))
        let places = [SourceLocation(line: 2, column: 1), SourceLocation(line: 9, column: 1)]
        let input = ConservationStructure.Reading(features: [first, second], places: places)
        // The hole and the shell swapped, `Name` re-cased, 12 made text: the values are all there.
        let scrambled = ComparedFeature(
            properties: [("name", .string("a")), ("pop", .string("12"))],
            geometry: .polygon(PolygonRings(outer: hole, holes: [shell])))
        let output = ConservationStructure.Reading(features: [scrambled, second], places: places)
        let structure = ConservationStructure(converter: Converter())
        let silent = structure.changes(from: input, to: output, format: .geoJSON, warnings: []).silent
        let propertyChanges = Set(silent.filter { $0.category.hasPrefix("property.") }.map(\.category))
        #expect(propertyChanges == ["property.missing", "property.added", "property.type"])
        #expect(silent.allSatisfy { $0.feature == 0 })
        #expect(silent.contains { $0.category.hasPrefix("shape.") })
        // A warning inside the first feature (line 5) names its changes; one in the second does not.
        let inside = Diagnostic(code: "x.changed", message: "changed", location: SourceLocation(line: 5, column: 3))
        #expect(structure.changes(from: input, to: output, format: .geoJSON, warnings: [inside]).silent.isEmpty)
        let elsewhere = Diagnostic(code: "x.changed", message: "changed", location: SourceLocation(line: 9, column: 4))
        let stillSilent = structure.changes(from: input, to: output, format: .geoJSON, warnings: [elsewhere]).silent
        #expect(stillSilent.count == silent.count)
    }

    /// Every file of `testdata/`, `../shared/conformance/`, `../shared/realworld/` and
    /// `../shared/realworld-more/`: silent losses only where `testdata/conservation/known-losses.tsv`
    /// lists them (each a finding not fixed yet, counted exactly: fewer fails too, so the list
    /// shrinks), and nothing changed silently: the round trip's reading equals the input's by
    /// address, or a warning names the feature.
    @Test func corporaLoseAndChangeNothingSilentlyBeyondTheKnownFindings() throws {
        func fileSize(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        let ledgerPath = Fixtures.testdata("conservation/known-losses.tsv")
        var known: [String: Int] = [:]
        for line in try String(contentsOfFile: ledgerPath, encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            if fields.count >= 2, let count = Int(fields[1]) { known[String(fields[0])] = count }
        }
        let roots: [(key: String, url: URL)] = [
            ("testdata", Fixtures.testdata), ("shared/conformance", Fixtures.conformance),
            ("shared/realworld", Fixtures.shared.appendingPathComponent("realworld")),
            ("shared/realworld-more", Fixtures.shared.appendingPathComponent("realworld-more")),
        ]
        var found: [(key: String, path: String)] = []
        let check = ConservationCheck()
        for root in roots {
            #expect(FileManager.default.fileExists(atPath: root.url.path), "\(root.url.path) is missing")
            let listed = FileManager.default.enumerator(atPath: root.url.path)?.compactMap { $0 as? String } ?? []
            for relative in listed.sorted() {
                let path = root.url.appendingPathComponent(relative).path
                if check.applies(to: path) { found.append((root.key + "/" + relative, path)) }
            }
        }
        let paths = found
        // Checked on two threads, largest first, and looked at below in the files' order.
        let sizes = paths.map { fileSize($0.path) }
        let results = mapLargestFirst(sizes: sizes) { index in
            Result { () throws(GeoConvError) in try check.check(paths[index].path) }
        }
        var files = 0
        var totals = (read: 0, carried: 0, reported: 0, lost: 0, changed: 0)
        for (index, (key, _)) in paths.enumerated() {
            guard let result = try #require(results[index], "\(key) was not checked").get() else { continue }
            files += 1
            totals.read += result.read
            totals.carried += result.carried
            totals.reported += result.reported
            totals.lost += result.lostSilently.count
            let lost = result.lostSilently.prefix(3).map {
                "\($0.line):\($0.column) \($0.holder) \"\($0.text.prefix(40))\""
            }
            #expect(
                result.lostSilently.count == known[key] ?? 0,
                "\(key): \(result.lostSilently.count) values lost silently (known: \(known[key] ?? 0)), e.g. \(lost)"
            )
            totals.changed += result.changedReported
            #expect(result.changedSilently.isEmpty, "\(key): changed silently: \(result.changedSilently.prefix(3))")
        }
        #expect(files > 300)
        print(
            "conservation: \(files) files, values read \(totals.read), carried \(totals.carried), "
                + "reported \(totals.reported), lost silently \(totals.lost); changed with a warning \(totals.changed)")
    }
}
