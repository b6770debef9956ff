import Foundation
import GeoConv
import GeoConvCore
import GeoConvFormatKit
@testable import GeoConvGeoPackage
import GeoConvIO
import GeoConvTestSupport
import Testing

/// `--jobs` on a GeoPackage: each table's rows cut into runs of consecutive fids and read on
/// every core. The output is one thread's, byte for byte; a damaged row is reported at its
/// table and fid either way.
@Suite("GeoPackage --jobs", .enabled(if: BuiltTraits.geoPackage))
struct GeoPackageJobsTests {
    /// A table of 3,000 rows: fids with gaps, polygons with a hole, typed values and nulls.
    static func table() throws -> String {
        let features = (0..<3000).map { i in
            let x = Double(i % 170), y = Double(i % 80)
            let outer: Path = [
                Coordinate(latitude: y, longitude: x), Coordinate(latitude: y, longitude: x + 1),
                Coordinate(latitude: y + 1, longitude: x + 1), Coordinate(latitude: y, longitude: x),
            ]
            let hole: Path = [
                Coordinate(latitude: y + 0.1, longitude: x + 0.5), Coordinate(latitude: y + 0.2, longitude: x + 0.6),
                Coordinate(latitude: y + 0.1, longitude: x + 0.6), Coordinate(latitude: y + 0.1, longitude: x + 0.5),
            ]
            return Feature(
                id: .number(JSONNumber(2 * i + 1)),
                geometry: i % 3 == 0
                    ? .polygon(PolygonRings(outer: outer, holes: [hole]))
                    : .point(Coordinate(latitude: y, longitude: x)),
                properties: [
                    "name": .string("row \(i)"), "n": i % 7 == 0 ? .null : .number(JSONNumber(i * 3)),
                    "open": .bool(i % 2 == 0),
                ])
        }
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("rows.gpkg").path
        try FormatIO.write(features, as: .geoPackage, toFile: path)
        return path
    }

    static func convert(_ path: String, jobs: Int) throws -> ConversionReport {
        var options = ConversionOptions(outputFormat: .geoJSONSequence)
        options.jobs = jobs
        options.chunkBytes = 256  // (runs of 16 rows: the fewest a run holds)
        return try Converter().convert(.file(path), to: .memory, options: options)
    }

    @Test("Runs read on every core give one thread's output, byte for byte, table after table")
    func output() throws {
        let rows = try Self.table()
        let one = try Self.convert(rows, jobs: 1)
        let two = try Self.convert(rows, jobs: 2)
        #expect(one.statistics.featuresRead == 3000)
        #expect(two.output == one.output)
        let places = Fixtures.testdata("geopackage/places.gpkg")  // (three tables, one of attributes)
        #expect(try Self.convert(places, jobs: 2).output == Self.convert(places, jobs: 1).output)
    }

    #if GeoPackage
    @Test("The cut: consecutive fids, each run within a table, every row once; none with --where")
    func cut() throws {
        for path in [try Self.table(), Fixtures.testdata("geopackage/places.gpkg")] {
            var reader = try GeoPackageReader(try ByteReader(.file(path)), diagnostics: DiagnosticLog())
            _ = try reader.readHeader()
            #expect(reader.cutsFeatureRuns)
            let sample = try #require(try reader.sampleFeatureRun(size: 16))
            var features: [Feature] = []
            var counts: [Int] = []
            while let run = try reader.nextFeatureRun(size: 16) {
                var runReader = try run.makeReader(try ByteReader(.memory([], name: "run")), DiagnosticLog())
                var count = 0
                while let feature = try runReader.next() {
                    features.append(feature)
                    count += 1
                }
                counts.append(count)
            }
            #expect(try reader.next() == nil)
            #expect(sample.features == counts.first)
            let whole = try FormatIO.read(try ByteReader(.file(path)), as: .geoPackage).features
            #expect(features == whole, "\(path)")
            #expect(counts.count >= (whole.count == 3000 ? 188 : 3) && counts.allSatisfy { $0 <= 16 }, "\(counts)")
        }
        // A table keyed by two columns (which GeoPackage does not allow) is read on one thread:
        // its first key column need not be the rows' order.
        let twoKeys = try Self.table()
        let database = try GeoPackageDatabase(creating: twoKeys, name: twoKeys)
        try database.execute(
            """
            CREATE TABLE pairs (a INTEGER, b INTEGER, v TEXT, PRIMARY KEY (a, b));
            INSERT INTO pairs VALUES (2, 1, 'first'), (1, 2, 'second');
            INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES ('pairs', 'attributes', 'pairs');
            """)
        var keyed = try GeoPackageReader(try ByteReader(.file(twoKeys)), diagnostics: DiagnosticLog())
        _ = try keyed.readHeader()
        #expect(!keyed.cutsFeatureRuns)
        let pairs = try Self.convert(twoKeys, jobs: 2)
        #expect(try pairs.output == Self.convert(twoKeys, jobs: 1).output)
        // (Both key columns are properties: neither is the rows' fid.)
        let last = String(decoding: pairs.output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains(#""a":1,"b":2,"v":"second""#), "\(last)")
        var filtered = try GeoPackageReader(
            try ByteReader(.file(try Self.table())), whereClause: "n > 5", diagnostics: DiagnosticLog())
        _ = try filtered.readHeader()
        #expect(!filtered.cutsFeatureRuns)
    }

    @Test("A damaged geometry in a late run: the same error, at its table and fid, with one thread or two")
    func damagedRow() throws {
        let path = try Self.table()
        let database = try GeoPackageDatabase(creating: path, name: path)
        // (The R-tree's triggers call GeoPackage's SQL functions, which plain SQLite lacks.)
        for trigger in try database.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
            try database.execute("DROP TRIGGER \(GeoPackageSchema.quoted(trigger[0] ?? ""))")
        }
        try database.execute("UPDATE rows SET geom = X'47500003' WHERE fid = 5001")
        var errors: [GeoConvError?] = []
        for jobs in [1, 2] {
            let error = #expect(throws: GeoConvError.self) { _ = try Self.convert(path, jobs: jobs) }
            errors.append(error)
        }
        #expect(errors[0]?.location?.pointer == "/rows/5001", "\(String(describing: errors[0]))")
        #expect(errors[0]?.message == errors[1]?.message && errors[0]?.location == errors[1]?.location)
    }
    #endif
}
