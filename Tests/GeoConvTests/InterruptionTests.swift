import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvTestSupport
import Testing

/// A conversion that dies or fails half-way must leave the previous output untouched and no
/// temporary file behind (DESIGN §6; issue 8 "Nothing lost").
@Suite("Interrupted conversions", .serialized)
struct InterruptionTests {
    static let previous = "previous output\n"

    static func feature(_ i: Int) -> String {
        #"{"type":"Feature","properties":{"n":\#(i),"name":"stop \#(i)"},"geometry":{"type":"Point","coordinates":[\#(150 + Double(i % 100) / 100),\#(-33 - Double(i % 50) / 100)]}}"#
    }

    /// Starts `geoconv - OUT --from geojsonseq` on a pipe, feeds it part of its input,
    /// then sends `signal` while it waits for the rest.
    func interrupt(
        with signal: Int32, output name: String, temporaryDirectory: URL? = nil
    ) throws
        -> (directory: URL, status: Int32, reason: Process.TerminationReason)
    {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent(name)
        try Self.previous.write(to: output, atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["-", output.path, "--from", "geojsonseq"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let temporaryDirectory {
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporaryDirectory.path
            process.environment = environment
        }
        try process.run()
        var text = ""
        for i in 0..<5000 { text += Self.feature(i) + "\n" }
        input.fileHandleForWriting.write(Data(text.utf8))  // half-way: the writer has started
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (directory, process.terminationStatus, process.terminationReason)
    }

    @Test(
        "SIGTERM, SIGINT and SIGKILL mid-way leave the previous output and nothing else",
        arguments: [SIGTERM, SIGINT, SIGKILL])
    func killedMidway(signal: Int32) throws {
        for name in ["out.geojson", "out.kml"] {
            let run = try interrupt(with: signal, output: name)
            defer { try? FileManager.default.removeItem(at: run.directory) }
            #expect(run.reason == .uncaughtSignal)
            #expect(run.status == signal)
            let output = run.directory.appendingPathComponent(name)
            #expect(try String(contentsOf: output, encoding: .utf8) == Self.previous)
            #expect(try FileManager.default.contentsOfDirectory(atPath: run.directory.path) == [name])
        }
    }

    @Test(
        "A KMZ conversion stopped by SIGTERM or SIGINT leaves the previous output and no temporary directory",
        arguments: [SIGTERM, SIGINT])
    func kmzKilledMidway(signal: Int32) throws {
        let temporary = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let run = try interrupt(with: signal, output: "out.kmz", temporaryDirectory: temporary)
        defer { try? FileManager.default.removeItem(at: run.directory) }
        #expect(run.reason == .uncaughtSignal)
        #expect(run.status == signal)
        let output = run.directory.appendingPathComponent("out.kmz")
        #expect(try String(contentsOf: output, encoding: .utf8) == Self.previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.directory.path) == ["out.kmz"])
        // The KMZ is made in a directory of its own (doc.kml, then the archive): gone too.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test("A write that fails (file-size limit, as on a full disk) exits 1, keeps the previous output, leaves no file")
    func writeFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("stops.geojsonl")
        try (0..<3000).map(Self.feature).joined(separator: "\n").write(to: input, atomically: false, encoding: .utf8)
        for name in ["out.geojson", "out.kml", "out.wkt"] {
            let output = directory.appendingPathComponent(name)
            try Self.previous.write(to: output, atomically: false, encoding: .utf8)
            // ulimit -f counts 512- or 1024-byte blocks: 16 of them is far below the output.
            let result = try CLI.run(
                ["-c", "ulimit -f 16; exec \"$0\" \"$@\"", CLI.executable.path, input.path, output.path], shell: true)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("File too large"))
            #expect(result.stderr.contains("ulimit -f"))
            #expect(try String(contentsOf: output, encoding: .utf8) == Self.previous)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["out.geojson", "out.kml", "out.wkt", "stops.geojsonl"])
    }

    @Test("A failing feature writer in the library aborts the output: no file, nothing renamed")
    func failingWriterInLibrary() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.geojson")
        try Self.previous.write(to: output, atomically: false, encoding: .utf8)
        let input = (0..<100).map(Self.feature).joined(separator: "\n")
        struct FailAfter: FeatureTransform {
            var remaining = 40
            mutating func transform(_ feature: Feature, diagnostics: DiagnosticLog) throws(GeoConvError) -> [Feature] {
                remaining -= 1
                if remaining < 0 { throw GeoConvError(.io, "simulated failure after 40 features") }
                return [feature]
            }
        }
        #expect(throws: GeoConvError.self) {
            try Converter().convert(
                .memory(Array(input.utf8), name: "stops"), to: .file(output.path),
                options: ConversionOptions(inputFormat: .geoJSONSequence), transforms: [FailAfter()])
        }
        #expect(try String(contentsOf: output, encoding: .utf8) == Self.previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.geojson"])
    }
}
