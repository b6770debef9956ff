#if Rendering
// Built with the Rendering trait (Cairo, SQLite) only.
import GeoConvCore
import GeoConvGeometry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// SQLite: the system-library target where pkg-config finds it (Linux), the SDK's module on Apple platforms.
#if canImport(CSQLite)
internal import CSQLite
#elseif canImport(SQLite3)
internal import SQLite3
#endif

/// An MBTiles 1.3 file being written: SQLite with `metadata (name, value)` and `tiles
/// (zoom_level, tile_column, tile_row, tile_data)`, rows in TMS order (0 at the south), one
/// transaction, written to a temporary file renamed into place by `commit`.
final class MBTilesWriter {
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private let path: String
    private let temporary: String

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns. (The C macro
    /// casts -1 to a function pointer, which Swift does not import.)
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    init(path: String) throws(GeoConvError) {
        self.path = path
        temporary = path + ".geoconv-tmp"
        unlink(temporary)
        guard sqlite3_open(temporary, &database) == SQLITE_OK else {
            throw GeoConvError(
                .io, "cannot create '\(path)': \(message)", hint: "check that the folder exists and is writable")
        }
        try execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
            """)
        guard sqlite3_prepare_v2(database, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK
        else {
            throw GeoConvError(.io, "cannot prepare the MBTiles insert: \(message)")
        }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(database)
    }

    private var message: String {
        database.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error"
    }

    private func execute(_ sql: String) throws(GeoConvError) {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw GeoConvError(.io, "SQLite: \(message) (\(path))")
        }
    }

    /// Adds a tile (y from the north, as everywhere else in geoconv; stored as TMS).
    func add(_ tile: Tile, png: [UInt8]) throws(GeoConvError) {
        let row = (1 << tile.z) - 1 - tile.y
        sqlite3_reset(insert)
        sqlite3_bind_int(insert, 1, Int32(tile.z))
        sqlite3_bind_int(insert, 2, Int32(tile.x))
        sqlite3_bind_int(insert, 3, Int32(row))
        _ = png.withUnsafeBytes {
            sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32($0.count), MBTilesWriter.transient)
        }
        guard sqlite3_step(insert) == SQLITE_DONE else {
            throw GeoConvError(.io, "cannot write tile \(tile) to '\(path)': \(message)")
        }
    }

    /// Writes the metadata, ends the transaction and moves the file into place.
    func commit(metadata: [(String, String)]) throws(GeoConvError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO metadata VALUES (?, ?)", -1, &statement, nil) == SQLITE_OK
        else {
            throw GeoConvError(.io, "SQLite: \(message)")
        }
        defer { sqlite3_finalize(statement) }
        for (name, value) in metadata {
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, name, -1, MBTilesWriter.transient)
            sqlite3_bind_text(statement, 2, value, -1, MBTilesWriter.transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw GeoConvError(.io, "SQLite: \(message)") }
        }
        try execute("COMMIT;")
        sqlite3_finalize(insert)
        insert = nil
        sqlite3_close(database)
        database = nil
        guard rename(temporary, path) == 0 else { throw GeoConvError(.io, "cannot move the MBTiles into '\(path)'") }
    }

    /// Removes the unfinished file.
    func abort() {
        sqlite3_close(database)
        database = nil
        unlink(temporary)
    }
}
#endif
