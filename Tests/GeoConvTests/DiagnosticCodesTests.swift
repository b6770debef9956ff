import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `docs/errors.md` lists every diagnostic code the sources use, and no other.
@Suite("Diagnostic codes are documented")
struct DiagnosticCodesTests {
    /// The prefixes of the pipeline's own codes (its transforms and commands), beside the
    /// formats' names.
    static let pipelinePrefixes = [
        "circle", "spans", "proj", "coordinate", "cluster", "geometry", "render", "output", "selection", "document",
    ]

    /// A code as the sources write it: a registered format's name or a pipeline prefix, a
    /// dot, a kebab-case name (longer prefixes first: `geojsonseq` before `geojson`).
    /// Formats a trait can leave out of the registry (their sources, and codes, are there).
    static let traitFormatPrefixes = ["shapefile"]

    static let codePattern: String = {
        let prefixes = Set(FormatRegistry.standard.formats.map(\.name) + pipelinePrefixes + traitFormatPrefixes).sorted
        { $0.count > $1.count }
        return "((?:" + prefixes.joined(separator: "|") + #")\.[a-z0-9-]+|embedded-files-dropped)"#
    }()

    static func codes(in text: String, quoted: Character) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: "\(quoted)" + codePattern + "\(quoted)")
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            regex.matches(in: text, range: range).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    @Test("Every code in Sources/ has a row in docs/errors.md, and every row a code in Sources/")
    func documented() throws {
        var used = Set<String>()
        let sources = Fixtures.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        for file in files where file.hasSuffix(".swift") {
            used.formUnion(
                try Self.codes(
                    in: String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8), quoted: "\""))
        }
        let docs = try String(contentsOf: Fixtures.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        let section = try #require(
            docs.components(separatedBy: "## Every code").last?.components(separatedBy: "\n## ").first)
        let rows = Set(
            section.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row in
                row.dropFirst(3).split(separator: "`").first.map(String.init)
            })
        #expect(used.count >= 90, "\(used.count) codes found in Sources/")
        #expect(
            used.subtracting(rows).isEmpty, "codes without a row in docs/errors.md: \(used.subtracting(rows).sorted())")
        #expect(rows.subtracting(used).isEmpty, "rows for codes no source uses: \(rows.subtracting(used).sorted())")
    }
}
