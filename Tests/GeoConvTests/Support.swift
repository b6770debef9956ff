import Foundation
import GeoConv
import Testing

/// Paths to the repository's fixtures and the shared conformance corpus.
enum Fixtures {
    /// The repository root (this file is Tests/GeoConvTests/Support.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `testdata/` in the repository.
    static let testdata = root.appendingPathComponent("testdata")
    /// The shared corpus: `$GEOCONV_SHARED` when set (`scripts/test` sets it for a clone
    /// whose `../shared` is beside the repository it was cloned from), else `../shared`
    /// beside the repository.
    static let shared = ProcessInfo.processInfo.environment["GEOCONV_SHARED"].map { URL(fileURLWithPath: $0) }
        ?? root.deletingLastPathComponent().appendingPathComponent("shared")
    /// `conformance/` of the shared corpus.
    static let conformance = shared.appendingPathComponent("conformance")

    static func testdata(_ relative: String) -> String { testdata.appendingPathComponent(relative).path }

    static func jsonObject(at url: URL) throws -> [String: Any] {
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
    static func temporaryDirectory() throws -> URL {
        let url = processDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs the built `geoconv` binary.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `geoconv` executable next to the test bundle in the build directory.
    static var executable: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("geoconv")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("geoconv")
    }

    /// Runs geoconv, or with `shell` `/bin/sh` with `arguments`.
    static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil, shell: Bool = false) throws -> Result {
        let process = Process()
        process.executableURL = shell ? URL(fileURLWithPath: "/bin/sh") : executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Whether `point` is inside `ring` (even–odd rule on latitude/longitude as plane coordinates).
func ringContains(_ ring: Path, _ point: Coordinate) -> Bool {
    var inside = false
    var j = ring.count - 1
    for i in 0..<ring.count {
        let a = ring[i], b = ring[j]
        if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
            let x = (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
            if point.longitude < x { inside.toggle() }
        }
        j = i
    }
    return inside
}

/// Reads all features of a `.polyline` text.
func readPolylineFeatures(_ text: String, precision: Int = 5, skipInvalid: Bool = false) throws(GeoConvError) -> (features: [Feature], diagnostics: DiagnosticLog) {
    let diagnostics = DiagnosticLog()
    var reader = PolylineFileReader(try ByteReader(.memory(Array(text.utf8), name: "test.polyline")),
                                    options: PolylineFileOptions(precision: precision, skipsInvalidLines: skipInvalid),
                                    diagnostics: diagnostics)
    _ = try reader.readHeader()
    var features: [Feature] = []
    while let feature = try reader.next() { features.append(feature) }
    return (features, diagnostics)
}
