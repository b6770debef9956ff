import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

/// One row of `testdata/invalid/expected.tsv`.
struct InvalidCase: CustomTestStringConvertible, Sendable {
    var file: String
    /// An error code, or `warning:<diagnostic code>`.
    var outcome: String
    /// `line:column`, `line`, or `-`.
    var position: String
    var fragment: String

    var testDescription: String { file }

    static func all() throws -> [InvalidCase] {
        let manifest = try String(contentsOfFile: Fixtures.testdata("invalid/expected.tsv"), encoding: .utf8)
        return manifest.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { return nil }
            return InvalidCase(file: fields[0], outcome: fields[1], position: fields[2], fragment: fields[3])
        }
    }

    /// The position a location renders as, in the manifest's notation.
    static func render(_ location: GeoConvCore.SourceLocation?) -> String {
        guard let line = location?.line else { return "-" }
        guard let column = location?.column else { return "\(line)" }
        return "\(line):\(column)"
    }
}

@Suite("Bad-input corpus (testdata/invalid)")
struct InvalidCorpusTests {
    @Test("every file in testdata/invalid has an expectation, and every expectation a file")
    func manifestCoversCorpus() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.testdata("invalid"))
            .filter { $0 != "expected.tsv" }
        let cases = try InvalidCase.all()
        #expect(Set(files) == Set(cases.map(\.file)))
        #expect(cases.count >= 50)
    }

    @Test("each bad input gives its expected error or warning, at its position", arguments: try InvalidCase.all())
    func outcome(_ invalid: InvalidCase) throws {
        let path = Fixtures.testdata("invalid/\(invalid.file)")
        let options = ConversionOptions(outputFormat: .geoJSON)
        if invalid.outcome.hasPrefix("warning:") {
            let code = String(invalid.outcome.dropFirst("warning:".count))
            let report = try Converter().convert(.file(path), to: .memory, options: options)
            let entry = try #require(
                report.diagnostics.entries[code], "no \(code) warning; got \(Array(report.diagnostics.entries.keys))")
            #expect(entry.first.message.contains(invalid.fragment), "\(entry.first.message)")
            #expect(InvalidCase.render(entry.first.location) == invalid.position)
            // --strict turns the warning into a failure, and nothing is written.
            var strict = options
            strict.strict = true
            #expect(throws: GeoConvError.self) { try Converter().convert(.file(path), to: .memory, options: strict) }
        } else {
            do throws(GeoConvError) {
                _ = try Converter().convert(.file(path), to: .memory, options: options)
                Issue.record("\(invalid.file) converted without an error")
            } catch {
                #expect(error.code.rawValue == invalid.outcome, "\(error.code.rawValue): \(error.message)")
                #expect(error.message.contains(invalid.fragment), "\(error.message)")
                #expect(InvalidCase.render(error.location) == invalid.position, "\(error.message)")
            }
        }
    }

    @Test(
        "the CLI refuses each erroneous input with exit status 1 and leaves no output",
        arguments: try InvalidCase.all().filter { !$0.outcome.hasPrefix("warning:") })
    func cliRefuses(_ invalid: InvalidCase) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.geojson").path
        let result = try CLI.run([Fixtures.testdata("invalid/\(invalid.file)"), output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error:"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
