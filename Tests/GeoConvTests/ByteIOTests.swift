import Foundation
import GeoConv
import GeoConvCore
import GeoConvIO
import GeoConvTestSupport
import Synchronization
import Testing

@Suite("Line reading and atomic output")
struct ByteIOTests {
    @Test("Lines across buffer boundaries, CRLF, and a last line without newline", arguments: [16, 17, 64, 1 << 20])
    func lines(bufferSize: Int) throws {
        let text = "first line\r\nsecond, a good deal longer than the buffer is wide\n\nlast"
        let reader = LineReader(try ByteReader(.memory(Array(text.utf8), name: "t")), bufferSize: bufferSize)
        var seen: [(String, Int, Int)] = []
        while let line = try reader.nextLine() {
            seen.append((String(decoding: line, as: UTF8.self), reader.lineNumber, reader.lineOffset))
        }
        #expect(seen.map(\.0) == ["first line", "second, a good deal longer than the buffer is wide", "", "last"])
        #expect(seen.map(\.1) == [1, 2, 3, 4])
        #expect(seen.map(\.2) == [0, 12, 63, 64])
    }

    @Test("A line longer than the limit is an error, not unbounded memory")
    func limit() throws {
        let reader = LineReader(
            try ByteReader(.memory(Array(repeating: 65, count: 5000), name: "t")),
            maximumLineLength: 1024, bufferSize: 64)
        #expect(throws: GeoConvError.self) { _ = try reader.nextLine() }
    }

    @Test("Peeking does not consume")
    func peek() throws {
        let reader = try ByteReader(.memory(Array("hello world".utf8), name: "t"))
        #expect(try reader.peek(5) == Array("hello".utf8))
        let lines = LineReader(reader)
        #expect(try lines.nextLine().map { String(decoding: $0, as: UTF8.self) } == "hello world")
    }

    @Test("A missing file says so")
    func missing() {
        #expect(throws: GeoConvError.self) { _ = try ByteReader(.file("/nonexistent/geoconv/input.polyline")) }
    }

    @Test("File output appears only on commit; abort leaves the old file and no temporary")
    func atomic() throws {
        let directory = try Fixtures.temporaryDirectory()
        let target = directory.appendingPathComponent("out.polyline").path
        try "old contents\n".write(toFile: target, atomically: false, encoding: .utf8)

        let failed = try ByteWriter(.file(target))
        try failed.write("partial")
        try failed.flush()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old contents\n")
        failed.abort()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.polyline"])
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old contents\n")

        let good = try ByteWriter(.file(target))
        try good.write("new contents\n")
        try good.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new contents\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.polyline"])
    }

    @Test("Devices and pipes are written in place, never replaced by a renamed file")
    func specialFiles() throws {
        let writer = try ByteWriter(.file("/dev/null"))
        try writer.write("discarded")
        try writer.commit()
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        #expect((info.st_mode & S_IFMT) == S_IFCHR)
        let directory = try Fixtures.temporaryDirectory()
        #expect(throws: GeoConvError.self) { _ = try ByteWriter(.file(directory.path)) }
    }

    @Test("An unwritable directory fails before anything is read")
    func unwritable() {
        #expect(throws: GeoConvError.self) { _ = try ByteWriter(.file("/nonexistent/geoconv/out.polyline")) }
    }

    @Test("A memory writer writes into a kept buffer, and only a few buffers of a run's size are kept")
    func spareBuffers() throws {
        let spares = SpareBuffers()
        var used = [UInt8](repeating: 7, count: 100)
        used.reserveCapacity(1 << 20)
        let storage = used.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        spares.keep(used)
        used = []
        spares.keep([UInt8](repeating: 0, count: SpareBuffers.largest + 1))
        let writer = try ByteWriter(memoryReusing: spares)
        try writer.write(Array("records".utf8))
        try writer.commit()
        // The kept buffer itself, its bytes gone.
        #expect(writer.memoryContents == Array("records".utf8))
        #expect(writer.memoryContents.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == storage)
        // The one too large was not kept: what is taken now is new.
        #expect(spares.take().capacity == 0)
        for _ in 0..<(SpareBuffers.count + 2) { spares.keep([UInt8](repeating: 1, count: 10)) }
        let taken = (0..<(SpareBuffers.count + 1)).map { _ in spares.take() }
        #expect(taken.map { $0.capacity > 0 } == Array(repeating: true, count: SpareBuffers.count) + [false])
        #expect(taken.allSatisfy { $0.isEmpty })
    }
}

@Suite("Temporary files owned by each output")
struct TemporaryFilesTests {
    @Test(
        "Two outputs in one process: each registers its own temporary for the signal handler and forgets only its own")
    func twoOwners() throws {
        let directory = try Fixtures.temporaryDirectory()
        let first = directory.appendingPathComponent("first.tmp").path
        let kmz = directory.appendingPathComponent("kmz").path
        let firstSlot = try #require(TemporaryFiles.register(file: first))
        let secondSlot = try #require(TemporaryFiles.register(kmz, files: ["doc.kml", "out.zip"]))
        #expect(firstSlot != secondSlot)
        let both = TemporaryFiles.registeredPaths()
        #expect(both.contains(first))
        #expect(both.contains(kmz + "/doc.kml") && both.contains(kmz + "/out.zip") && both.contains(kmz))
        TemporaryFiles.unregister(firstSlot)
        let rest = TemporaryFiles.registeredPaths()
        #expect(!rest.contains(first))
        #expect(rest.contains(kmz + "/doc.kml") && rest.contains(kmz))
        TemporaryFiles.unregister(secondSlot)
        #expect(!TemporaryFiles.registeredPaths().contains(kmz))
    }

    /// `info` hands its writers to a background task; one of them (the shapefile's) holds a
    /// temporary folder until it is released. Released by the queue after the task reported
    /// done, it raced the process's exit, and `/tmp` kept an empty `geoconv-…` folder. (The
    /// captured object takes its time to go, as removing a folder does: released after the
    /// task is done, it is not yet gone when the value is handed back.)
    @Test("A background task lets go of what its work captured before its value is handed back")
    func backgroundTaskReleasesItsWork() {
        final class Gone: Sendable { let flag = Mutex(false) }
        final class Held {
            let gone: Gone
            init(_ gone: Gone) { self.gone = gone }
            deinit {
                usleep(5_000)
                gone.flag.withLock { $0 = true }
            }
        }
        for round in 0..<5 {
            let gone = Gone()
            let task: BackgroundTask<Int> = {
                let held = Held(gone)
                return BackgroundTask { withExtendedLifetime(held) { round } }
            }()
            #expect(task.value() == round)
            #expect(gone.flag.withLock { $0 })
        }
    }

    @Test("Two conversions writing files at once in one process each commit their own output")
    func twoConversions() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Fixtures.testdata("geojson/faithful.geojson")
        let outputs = ["a.kml", "b.kmz"].map { directory.appendingPathComponent($0).path }
        let reports = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let report = try? Converter().convert(.file(input), to: .file(outputs[index]))
            reports.withLock { $0[outputs[index]] = report?.statistics.featuresWritten }
        }
        let written = reports.withLock { $0 }
        for output in outputs {
            #expect((written[output] ?? 0) > 0)
            #expect(FileManager.default.fileExists(atPath: output))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(".geoconv-")
        }
        #expect(left.isEmpty)
        #expect(!TemporaryFiles.registeredPaths().contains { $0.hasPrefix(directory.path) })
    }
}
