import Foundation
import GeoConv
import GeoConvTestSupport
import Testing

/// Every corpus file through every format geoconv writes and read back, compared with the
/// file's own reading by address (issue 43, item 3): the same structure, a warning naming the
/// feature that changed, or a silent change of a class `testdata/conservation/cross-format/`
/// lists for that writer (each class counted exactly: a new one fails, a fixed one asks for
/// the table to be rewritten with `GEOCONV_UPDATE_KNOWN=1 swift test --filter CrossFormatTests`).
@Suite("Cross-format round trips of the corpora")
struct CrossFormatTests {
    /// The writers: every format of the registry that reads and writes whole corpora (not one
    /// geometry), with the tolerance of their numbers (`defaultDecimals`: a polyline's 5).
    static let writers = RoundTripFormats.all

    /// Files up to this size take part in CI (the few larger ones — 42 files, 70 MB, national
    /// boundaries and feeds — would take most of CI's time in a debug build: they go through
    /// the same-format conservation check and the GDAL differential check);
    /// `GEOCONV_CROSS_ALL=1` takes them all.
    static let largestFile = ProcessInfo.processInfo.environment["GEOCONV_CROSS_ALL"] == "1" ? Int.max : 256 << 10

    /// The corpus files geoconv reads: `testdata/` and the shared corpora.
    static let files: [(key: String, path: String, size: Int)] = {
        let roots: [(String, URL)] = [
            ("testdata", Fixtures.testdata), ("shared/conformance", Fixtures.conformance),
            ("shared/realworld", Fixtures.shared.appendingPathComponent("realworld")),
            ("shared/realworld-more", Fixtures.shared.appendingPathComponent("realworld-more")),
        ]
        var files: [(String, String, Int)] = []
        for (key, url) in roots {
            let found = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
            for relative in found.sorted() where FormatRegistry.standard.format(forPath: relative)?.makeReader != nil {
                // (The checks' own ledgers, tab-separated, are no corpus: they change with the results.)
                let ledgers = ["conservation/", "roundtrip/", "differential/"]
                if key == "testdata", ledgers.contains(where: relative.hasPrefix) {
                    continue
                }
                let path = url.appendingPathComponent(relative).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                if size <= largestFile { files.append((key + "/" + relative, path, size)) }
            }
        }
        return files
    }()

    static func ledgerPath(_ format: FileFormat) -> String {
        Fixtures.testdata("conservation/cross-format/\(format.name).tsv")
    }

    /// What one writer did to one file.
    struct Outcome: Sendable {
        var reported = 0
        var silent: [StructuralDifference] = []
    }

    /// (The ledgers are the full build's: without PROJ, Shapefile or zstd, other files are read
    /// or refused, and the counts differ.) Each file is read once and written by every writer,
    /// the files shared out to two threads, largest first; each writer's results are then
    /// taken in the files' order.
    @Test(
        "Every corpus file to each writer and back: the same structure, a warning, or a known silent class",
        .enabled(if: BuiltTraits.proj && BuiltTraits.shapefile && BuiltTraits.zstd))
    func throughEveryWriter() throws {
        let check = ConservationCheck()
        let files = Self.files
        // By file (`nil`: not read), by writer.
        let outcomes = mapLargestFirst(sizes: files.map(\.size)) { index -> [Result<Outcome?, GeoConvError>]? in
            let path = files[index].path
            guard let before = check.reading(path) else { return nil }
            return Self.writers.map { format, tolerance in
                Result { () throws(GeoConvError) in
                    try check.changes(path, from: before, through: format, tolerance: tolerance)
                        .map { Outcome(reported: $0.reported, silent: $0.silent) }
                }
            }
        }
        // (An error, the first in the files' order, fails the test as it did on one thread.)
        let results = try outcomes.map { byWriter in try byWriter??.map { try $0.get() } }
        for (writer, (format, _)) in Self.writers.enumerated() {
            try holdToLedger(format, files.indices.map { index in results[index]?[writer] })
        }
    }

    /// One writer's outcomes, by file (`nil`: the file was not read, or the writer refused it),
    /// held to its ledger.
    private func holdToLedger(_ format: FileFormat, _ outcomes: [Outcome?]) throws {
        let name = format.name
        var files = 0
        var reported = 0
        var silent: [String: Int] = [:]
        var examples: [String: String] = [:]
        for (index, outcome) in outcomes.enumerated() {
            guard let outcome else { continue }
            let key = Self.files[index].key
            files += 1
            reported += outcome.reported
            for difference in outcome.silent {
                silent[difference.category, default: 0] += 1
                if ProcessInfo.processInfo.environment["GEOCONV_CROSS_DUMP"] == "1" {
                    print("silent \(name)\t\(difference.category)\t\(key)\t\(difference)")
                }
                if examples[difference.category] == nil { examples[difference.category] = "\(key): \(difference)" }
            }
        }
        print(
            "cross-format \(name): \(files) files, \(reported) changes with a warning, "
                + "\(silent.values.reduce(0, +)) silent in \(silent.count) known classes")
        for (category, example) in examples.sorted(by: { $0.key < $1.key }) {
            print("  \(name) \(category): \(example.prefix(300))")
        }
        #expect(files > 300)
        let rows = silent.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
        let path = Self.ledgerPath(format)
        if ProcessInfo.processInfo.environment["GEOCONV_UPDATE_KNOWN"] == "1" {
            let header =
                "# Silent changes of the corpora written as \(name) and read back, not fixed yet:"
                + " class, places.\n"
                + "# Written by GEOCONV_UPDATE_KNOWN=1 swift test --filter CrossFormatTests;"
                + " the test holds geoconv to it.\n"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            let text = header + rows.joined(separator: "\n") + (rows.isEmpty ? "" : "\n")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let known = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map(String.init)
        for row in rows where !known.contains(row) {
            let category = String(row.prefix { $0 != "\t" })
            let message =
                "\(name): a silent change not in \(path) (or with another count):"
                + " \(row) — \(examples[category] ?? "")"
            Issue.record(Comment(rawValue: message))
        }
        for row in known where !rows.contains(row) {
            Issue.record("\(name): \(path) lists \(row), which the corpora no longer show so: rewrite the table")
        }
    }
}
