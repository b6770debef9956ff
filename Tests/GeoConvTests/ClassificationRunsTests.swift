import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `--classify`'s first reading on two threads (`ClassValueRuns`): runs of a large
/// FeatureCollection read on the workers, values handed on in input order — the classes,
/// the legend and the output those of one thread, and a bad feature reported at its place.
@Suite struct ClassificationRunsTests {
    /// 12,000 points (about 1.3 MB: several runs) with `n` their index, `v` a seeded number, a
    /// number as text or null, `open` a boolean and `kind` one of four; `bad` puts a broken
    /// feature at that index.
    static func input(bad: Int? = nil) -> String {
        var seed: UInt64 = 0x5eed
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        var features: [String] = []
        for index in 0..<12_000 {
            let roll = next() % 100
            let value = roll < 5 ? "null" : roll < 10 ? "\"\(next() % 500)\"" : "\(Double(next() % 100_000) / 7)"
            let kind = ["a", "b", "c", "d"][Int(next() % 4)]
            let x = Double(next() % 36_000) / 100 - 180
            let y = Double(next() % 17_000) / 100 - 85
            features.append(
                index == bad
                    ? #"{"type":"Feature","properties":{"v":1},"geometry":{"type":"Point","coordinates":[1,"#
                        + #""two"]}}"#
                    : #"{"type":"Feature","properties":{"n":\#(index),"v":\#(value),"open":\#(roll < 30),"#
                        + #""kind":"\#(kind)"},"geometry":{"type":"Point","coordinates":[\#(x),\#(y)]}}"#)
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    /// `text` written to a file (once: the messages name it), converted with `classify`.
    final class Input {
        let directory: URL
        let path: String

        init(_ text: String) throws {
            directory = try Fixtures.temporaryDirectory()
            path = directory.appendingPathComponent("in.geojson").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func convert(classify: String, jobs: Int, where clause: String? = nil) throws -> ConversionReport {
            var options = ConversionOptions(outputFormat: .geoJSON)
            options.classification = try Classification(classify)
            options.selection.whereClause = clause
            options.jobs = jobs
            return try Converter().convert(.file(path), to: .memory, options: options)
        }
    }

    @Test(
        "Two threads make the classes, legend and output of one",
        arguments: ["v classes=5", "v method=equal-interval classes=4", "open", "kind colors=red,blue other=gray"])
    func sameClasses(classify: String) throws {
        let input = try Input(Self.input())
        for clause in [nil, "kind <> 'b' AND v > 100"] {
            let one = try input.convert(classify: classify, jobs: 1, where: clause)
            let two = try input.convert(classify: classify, jobs: 2, where: clause)
            let legend = try #require(two.legend)
            #expect(legend.entries.map(\.label) == one.legend?.entries.map(\.label))
            #expect(legend.entries.map(\.count) == one.legend?.entries.map(\.count))
            let sameOutput = two.output == one.output  // (not the bytes themselves in a failure)
            #expect(sameOutput, "the GeoJSON of two threads differs from one's")
            #expect(two.diagnostics.summary == one.diagnostics.summary)
        }
    }

    @Test("Two threads count every feature once, in its class")
    func everyFeatureOnce() throws {
        let input = try Input(Self.input())
        let kinds = try #require(try input.convert(classify: "kind", jobs: 2).legend)
        #expect(kinds.entries.map(\.label) == ["a", "b", "c", "d"])
        #expect(kinds.entries.reduce(0) { $0 + $1.count } == 12_000)
        let quarters = try #require(try input.convert(classify: "n classes=4", jobs: 2).legend)
        #expect(quarters.entries.map(\.count) == [3_000, 3_000, 3_000, 3_000])
    }

    @Test("A broken feature after many runs stops the first reading at its place, as on one thread")
    func brokenFeature() throws {
        let input = try Input(Self.input(bad: 10_000))
        var errors: [GeoConvError] = []
        for jobs in [1, 2] {
            let error = #expect(throws: GeoConvError.self) {
                try input.convert(classify: "v classes=3", jobs: jobs)
            }
            if let error { errors.append(error) }
        }
        #expect(errors.count == 2)
        #expect(errors.first?.message == errors.last?.message)
        #expect(errors.first?.location == errors.last?.location)
        #expect(errors.last?.location?.line == 10_001)
    }
}
