import Foundation
@testable import GeoConv
import GeoConvCore
import GeoConvFormatKit
@testable import GeoConvGeoPackage
import GeoConvTestSupport
import Testing

/// `--where` on a GeoPackage is first said in SQL (`GeoPackageWhere`), so that SQLite passes
/// over the rows it rules out. The SQL must never rule out a row the pipeline's filter keeps:
/// for every expression, what is read is exactly what the pipeline keeps of the whole table,
/// feature by feature — on values stored as SQLite stores them when the declared type and the
/// value disagree (text in a REAL column, 2 in a BOOLEAN one, an infinite real, a blob).
@Suite("GeoPackage --where through SQL", .enabled(if: BuiltTraits.geoPackage))
struct GeoPackageWhereTests {
    /// A table of 12 rows whose values test the places where SQL and OGR SQL differ.
    static func table() throws -> String {
        func feature(_ id: Int, _ properties: JSONObject) -> Feature {
            Feature(
                id: .number(JSONNumber(id)), geometry: .point(Coordinate(latitude: Double(id), longitude: 1)),
                properties: properties)
        }
        func n(_ literal: String) -> JSONValue { .number(JSONNumber(uncheckedLiteral: literal)) }
        let kinds = ["park", "Park", "PARK", "road", "!x", "a_b", "Pärk", "park ", "5", "10", "", "z"]
        let features = kinds.indices.map { index in
            feature(
                index + 1,
                [
                    "kind": index == 3 ? .null : .string(kinds[index]),
                    "n": index == 5
                        ? .null : n(["5", "7", "2.5", "-3", "0", "0", "1000", "1e17", "5", "12", "7", "1"][index]),
                    "open": index % 3 == 0 ? .null : .bool(index % 2 == 0),
                    "name": .string("P\(index)rk"),
                ])
        }
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("where.gpkg").path
        try FormatIO.write(features, as: .geoPackage, toFile: path)
        #if GeoPackage
        // Values SQLite keeps as given, whatever the column's type.
        let database = try GeoPackageDatabase(creating: path, name: path)
        // (The R-tree's triggers call GeoPackage's SQL functions, which plain SQLite lacks.)
        for trigger in try database.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
            try database.execute("DROP TRIGGER \(GeoPackageSchema.quoted(trigger[0] ?? ""))")
        }
        try database.execute(
            """
            UPDATE "where" SET n = 'abc' WHERE fid = 3;
            UPDATE "where" SET n = ' 7 ' WHERE fid = 4;
            UPDATE "where" SET n = 9e999 WHERE fid = 5;
            UPDATE "where" SET open = 2 WHERE fid = 2;
            UPDATE "where" SET open = 'yes' WHERE fid = 5;
            UPDATE "where" SET kind = X'6b' WHERE fid = 12;
            UPDATE "where" SET kind = 5 WHERE fid = 11;
            """)
        #endif
        return path
    }

    /// The ids read with `--where expression`, the log; and the ids the pipeline keeps of the
    /// whole table.
    static func answers(
        _ expression: String, path: String
    ) throws -> (read: [String], kept: [String], log: DiagnosticLog) {
        var options = ConversionOptions()
        options.selection.whereClause = expression
        let log = DiagnosticLog()
        let read = try OverlayDocument.load(.file(path), options: options, diagnostics: log).features
        let all = try OverlayDocument.load(.file(path), options: ConversionOptions(), diagnostics: DiagnosticLog())
            .features
        var program = WhereProgram([try WhereExpression(expression)])
        var kept: [Feature] = []
        for feature in all where program.matches(feature) { kept.append(feature) }
        return (read.map { $0.id?.description ?? "-" }, kept.map { $0.id?.description ?? "-" }, log)
    }

    static let written: [String] = [
        "kind = 'park'", "kind <> 'park'", "kind < 'a'", "kind >= 'P'", "kind = 5", "kind > 4", "kind = '5'",
        "kind IN ('park', 'road', 10)", "kind LIKE 'p%'", "kind ILIKE 'P_RK'", "kind LIKE '%ä%'", "kind LIKE 5",
        "kind IS NULL", "kind IS NOT NULL", "NOT kind IS NULL", "n = 7", "n > 5", "n <= 0", "n = '7'", "n < 'b'",
        "n IS NULL", "n IS NOT NULL", "n = 1e17", "n > 1e16", "n IN (5, 2.5, NULL)", "open = 1", "open = 0",
        "open = 'yes'", "open IS NULL", "open > 0", "name = 'P3rk'", "title = 'P3rk'", "id = 3", "fid = 3",
        "missing = 1", "missing IS NULL", "kind = NULL", "5 < n", "'park' = kind", "n = n", "kind = 'park' OR n > 5",
        "kind = 'park' AND n > 5", "(kind = 'park' OR open = 1) AND NOT n > 5", "NOT (kind = 'park')",
        "kind NOT IN ('park')", "kind NOT LIKE 'p%'", "KIND = 'road'", "\"N\" >= 5",
    ]

    @Test("Every expression reads exactly what the pipeline keeps of the whole table")
    func writtenExpressions() throws {
        let path = try Self.table()
        var said = 0
        for expression in Self.written {
            let (read, kept, log) = try Self.answers(expression, path: path)
            #expect(read == kept, "\(expression)")
            if log.entries["geopackage.where-in-sql"] != nil { said += 1 }
        }
        // Most are said in SQL: the check above is not met by reading everything.
        #expect(said >= 35, "\(said) of \(Self.written.count) said in SQL")
    }

    @Test("Seeded random expressions: what is read is what the pipeline keeps")
    func generatedExpressions() throws {
        let path = try Self.table()
        var random = SplitMix64(seed: 20_261_130)
        let fields = ["kind", "n", "open", "name", "Kind", "missing"]
        let literals = ["'park'", "'PARK'", "'5'", "' 7 '", "'abc'", "'!x'", "5", "7", "2.5", "-3", "0", "1", "NULL"]
        let patterns = ["'p%'", "'%K'", "'_ark'", "'%'", "'5'"]
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        func predicate() -> String {
            let field = pick(fields)
            switch random.next() % 5 {
            case 0: return "\(field) \(pick(["=", "<>", "<", "<=", ">", ">="])) \(pick(literals))"
            case 1: return "\(field) IS \(pick(["", "NOT "]))NULL"
            case 2: return "\(field) \(pick(["", "NOT "]))IN (\(pick(literals)), \(pick(literals)))"
            case 3: return "\(field) \(pick(["LIKE", "ILIKE", "NOT LIKE"])) \(pick(patterns))"
            default: return "\(pick(literals)) \(pick(["=", "<", ">="])) \(field)"
            }
        }
        func expression(_ depth: Int) -> String {
            guard depth > 0, random.next() % 3 != 0 else { return predicate() }
            switch random.next() % 3 {
            case 0: return "(\(expression(depth - 1)) AND \(expression(depth - 1)))"
            case 1: return "(\(expression(depth - 1)) OR \(expression(depth - 1)))"
            default: return "NOT \(expression(depth - 1))"
            }
        }
        for _ in 0..<150 {
            let text = expression(3)
            let (read, kept, _) = try Self.answers(text, path: path)
            #expect(read == kept, "\(text)")
        }
    }

    @Test("The rows SQL rules out are not read: the pipeline leaves out only what SQL let through")
    func rowsPassedOver() throws {
        let path = try Self.table()
        let (read, _, log) = try Self.answers("kind = 'park'", path: path)
        #expect(read == ["1", "2", "3"])
        // The blob (row 12) is let through: SQL cannot say how the pipeline compares it (as
        // hex text). The other eight rows are never read (the 5 of row 11 is text '5': a
        // TEXT column's affinity made it so).
        #expect(log.entries["selection.where"]?.count == 1)
        let note = try #require(log.entries["geopackage.where-in-sql"]?.first)
        #expect(note.message.contains("+\"kind\" = 'park' COLLATE NOCASE"))
    }
}
