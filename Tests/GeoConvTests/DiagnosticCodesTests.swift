import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// `docs/errors.md` lists every diagnostic code the modules declare, and no other.
@Suite("Diagnostic codes are documented")
struct DiagnosticCodesTests {
    /// The codes of formats a trait can leave out of the registry (their sources, and rows,
    /// are there all the same), by the name their codes start with.
    static let traitFormatPrefixes = ["shapefile", "geopackage"]

    /// The table's codes, from the "Every code" section.
    static func documentedCodes() throws -> [String] {
        let docs = try String(contentsOf: Fixtures.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        let section = try #require(
            docs.components(separatedBy: "## Every code").last?.components(separatedBy: "\n## ").first)
        return section.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row in
            row.dropFirst(3).split(separator: "`").first.map(String.init)
        }
    }

    @Test("Every declared code has a row in docs/errors.md, and every row a declared code")
    func documented() throws {
        let declared = FormatRegistry.standard.diagnosticCodes
        let rows = try Self.documentedCodes()
        #expect(
            Set(rows).count == rows.count, "rows listed twice: \(rows.filter { code in rows.count { $0 == code } > 1 })"
        )
        let registered = Set(FormatRegistry.standard.formats.map(\.name))
        let unbuilt = Self.traitFormatPrefixes.filter { !registered.contains($0) }
        let expected = Set(rows).filter { row in !unbuilt.contains { row.hasPrefix($0 + ".") } }
        #expect(declared.count >= 150, "\(declared.count) codes declared")  // (188 without the traits)
        #expect(
            Set(declared).subtracting(expected).isEmpty,
            "codes without a row in docs/errors.md: \(Set(declared).subtracting(expected).sorted())")
        #expect(
            expected.subtracting(declared).isEmpty,
            "rows for codes no module declares: \(expected.subtracting(declared).sorted())")
    }

    @Test("A format's codes start with the name of a format its module registers; the pipeline's with none")
    func prefixes() {
        let formats = FormatRegistry.standard.formats
        for format in formats {
            let siblings = formats.filter { $0.diagnosticCodes == format.diagnosticCodes }.map(\.name)
            let strays = format.diagnosticCodes.filter { code in
                !siblings.contains { code.hasPrefix($0 + ".") }
            }
            #expect(strays.isEmpty, "\(format.name) declares \(strays)")
            #expect(!format.diagnosticCodes.isEmpty, "\(format.name) declares no codes")
        }
        let names = Set(formats.map(\.name) + Self.traitFormatPrefixes)
        let borrowed = FormatRegistry.pipelineDiagnosticCodes.filter { code in
            names.contains { code.hasPrefix($0 + ".") }
        }
        #expect(borrowed.isEmpty, "pipeline codes named after a format: \(borrowed)")
    }
}
