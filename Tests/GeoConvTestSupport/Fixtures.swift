public import Foundation
import Testing

/// Paths to the repository's fixtures and the shared conformance corpus.
public enum Fixtures {
    /// The repository root (this file is Tests/GeoConvTestSupport/Fixtures.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `testdata/` in the repository.
    public static let testdata = root.appendingPathComponent("testdata")
    /// The shared corpus: `$GEOCONV_SHARED` when set (`scripts/test` sets it for a clone
    /// whose `../shared` is beside the repository it was cloned from), else `../shared`
    /// beside the repository.
    public static let shared =
        ProcessInfo.processInfo.environment["GEOCONV_SHARED"].map { URL(fileURLWithPath: $0) }
        ?? root.deletingLastPathComponent().appendingPathComponent("shared")
    /// `conformance/` of the shared corpus.
    public static let conformance = shared.appendingPathComponent("conformance")

    /// The `files` of a conformance folder's `manifest.json` (each a JSON object), empty when
    /// the corpus is not there.
    public static func conformanceManifest(_ folder: String) -> [[String: Any]] {
        let url = conformance.appendingPathComponent(folder).appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let files = root["files"] as? [[String: Any]]
        else { return [] }
        return files
    }

    public static func testdata(_ relative: String) -> String { testdata.appendingPathComponent(relative).path }

    public static func jsonObject(at url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The test process's own directory under the system's: every test's directory lives in it,
    /// and it is removed with its contents when the process exits (tests used to leave theirs
    /// behind, a few megabytes per run).
    private static let processDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoconv-tests-" + UUID().uuidString)
        atexit {
            try? FileManager.default.removeItem(at: Fixtures.processDirectory)
        }
        return url
    }()

    /// A fresh empty directory for one test.
    public static func temporaryDirectory() throws -> URL {
        let url = processDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
