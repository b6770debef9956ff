import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
import GeoConvIO
import GeoConvParallel
import GeoConvTestSupport
import Testing

/// Every reader reads an input whose bytes arrive one at a time (as from a slow pipe) as it
/// reads the whole input at once: the same header, features and messages.
@Suite("Inputs that arrive a byte at a time")
struct DripFeedTests {
    /// The repository's fixtures of every readable format, by the registry's extensions
    /// (small ones: a byte at a time is slow by design).
    static let fixtures: [String] = {
        guard
            let walker = FileManager.default.enumerator(
                at: Fixtures.testdata, includingPropertiesForKeys: [.fileSizeKey])
        else { return [] }
        var paths: [String] = []
        for case let url as URL in walker {
            guard let format = FormatRegistry.standard.format(forPath: url.path), format.makeReader != nil,
                let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize, size < 64 << 10
            else { continue }
            paths.append(String(url.path.dropFirst(Fixtures.testdata.path.count + 1)))
        }
        return paths.sorted()
    }()

    @Test("Fixtures of every format are read the same a byte at a time", arguments: fixtures)
    func sameAsWhole(path: String) throws {
        let file = Fixtures.testdata(path)
        let format = try #require(FormatRegistry.standard.format(forPath: file))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let whole: Result<Recording, GeoConvError>
        let dripped: Result<Recording, GeoConvError>
        do throws(GeoConvError) {
            whole = .success(try Recording.read(try ByteReader(.memory(bytes, name: path)), as: format))
        } catch {
            whole = .failure(error)
        }
        do throws(GeoConvError) {
            dripped = .success(try Recording.read(try DripFeed.reader(bytes, name: path), as: format))
        } catch {
            dripped = .failure(error)
        }
        switch (whole, dripped) {
        case (.success(let a), .success(let b)):
            #expect(a.writer.finished && b.writer.finished)
            #expect(a.writer.header == b.writer.header, "\(path): header")
            #expect(
                a.writer.features == b.writer.features,
                "\(path): \(a.writer.features.count) features whole, \(b.writer.features.count) dripped")
            #expect(a.diagnostics.summary == b.diagnostics.summary, "\(path): messages")
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code && a.message == b.message && a.location == b.location, "\(path): \(a) vs \(b)")
        default:
            Issue.record("\(path): read whole \(whole), a byte at a time \(dripped)")
        }
    }

    @Test("The fixtures cover every readable format but binary WKB")
    func coverage() {
        let formats = Set(Self.fixtures.compactMap { FormatRegistry.standard.format(forPath: $0)?.name })
        for format in FormatRegistry.standard.formats
        where format.makeReader != nil && format.name != "wkb" && format.name != "wkbhex" {
            #expect(formats.contains(format.name), "no fixture of \(format.name)")
        }
    }
}

/// The read-ahead decorator hands on exactly what the reader it wraps reads, whatever the
/// order of the calls, and stops its thread when dropped early.
@Suite("Reading ahead")
struct ReadingAheadTests {
    static func reader(_ bytes: [UInt8]) throws(GeoConvError) -> GeoJSONReader {
        try GeoJSONReader(ByteReader(.memory(bytes, name: "in.geojson")), diagnostics: DiagnosticLog())
    }

    static let document: [UInt8] = {
        let features = (0..<3000).map {
            #"{"type":"Feature","properties":{"n":\#($0)},"geometry":{"type":"Point","coordinates":[\#($0 % 180),1]}}"#
        }
        return Array(
            (#"{"type":"FeatureCollection","name":"ahead","features":["# + features.joined(separator: ",") + "]}").utf8)
    }()

    @Test("The same header, features and places as the wrapped reader; next() first reads the header")
    func same() throws {
        var plain: GeoJSONReader = try Self.reader(Self.document)
        let header = try plain.readHeader()
        var expected: [(Feature, GeoConvCore.SourceLocation?)] = []
        while let feature = try plain.next() { expected.append((feature, plain.lastLocation)) }
        #expect(expected.count == 3000)

        let ahead = ReadingAhead(try Self.reader(Self.document), maximumQueuedPositions: 64)
        #expect(try ahead.readHeader() == header)
        #expect(try ahead.readHeader() == header, "asked twice, the same header")
        var got: [(Feature, GeoConvCore.SourceLocation?)] = []
        while let feature = try ahead.next() { got.append((feature, ahead.lastLocation)) }
        #expect(got.map(\.0) == expected.map(\.0))
        #expect(got.map(\.1) == expected.map(\.1))

        let eager = ReadingAhead(try Self.reader(Self.document))
        #expect(try eager.next() == expected[0].0)
    }

    @Test("Dropped after a few features, it stops its thread (no hang, nothing read behind)")
    func droppedEarly() throws {
        for _ in 0..<20 {
            let ahead = ReadingAhead(try Self.reader(Self.document), maximumQueuedPositions: 16)
            _ = try ahead.readHeader()
            #expect(try ahead.next() != nil)
        }
    }
}
