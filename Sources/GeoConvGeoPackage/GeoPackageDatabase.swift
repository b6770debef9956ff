#if GeoPackage
// Built with the GeoPackage trait (SQLite) only.
import GeoConvCore
// SQLite: the system-library target where pkg-config finds it (Linux), the SDK's module on Apple platforms.
#if canImport(CSQLite)
internal import CSQLite
#elseif canImport(SQLite3)
internal import SQLite3
#endif

/// A GeoPackage's SQLite database, opened read-only to read it or created to write one, and
/// the statements run on it: the one place that speaks SQLite's C API.
final class GeoPackageDatabase {
    private var handle: OpaquePointer?
    let name: String
    /// What an error of a statement is: reading a damaged input, or writing the output.
    private let writes: Bool

    /// Opens the file at `path` read-only; `name` is the input's name in messages.
    init(path: String, name: String) throws(GeoConvError) {
        self.name = name
        writes = false
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error"
            sqlite3_close(handle)
            handle = nil
            throw GeoConvError(
                .invalidInput, "cannot open the GeoPackage: \(message)", at: SourceLocation(file: name),
                hint: "give a .gpkg file (an SQLite database)")
        }
    }

    /// Creates a database at `path` (a new file in a temporary folder) to write; `name` is the
    /// output's name in messages. Nothing is journaled or synced: a failed conversion deletes
    /// the file, and a finished one is copied into the output in one piece.
    init(creating path: String, name: String) throws(GeoConvError) {
        self.name = name
        writes = true
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error"
            sqlite3_close(handle)
            handle = nil
            throw GeoConvError(
                .io, "cannot create the GeoPackage for '\(name)': \(message)",
                hint: "check that the output's folder is writable and has space")
        }
        try execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192")
    }

    deinit { sqlite3_close(handle) }

    /// The key of the last row inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `sql` (statements without results: the schema, a transaction's start and end).
    func execute(_ sql: String) throws(GeoConvError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? self.message
            sqlite3_free(error)
            throw failure(message)
        }
    }

    /// The error of a statement that failed with `message`: a damaged input when reading, a
    /// failed write (a full disk) when writing.
    func failure(_ message: String) -> GeoConvError {
        writes
            ? GeoConvError(
                .io, "cannot write the GeoPackage '\(name)': \(message)",
                hint: "check that the output's folder has space")
            : GeoConvError(
                .invalidInput, "the GeoPackage cannot be read: \(message)", at: SourceLocation(file: name),
                hint: "check the file with `ogrinfo` or `sqlite3`: it may be damaged or not a GeoPackage")
    }

    var message: String { handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error" }

    /// A prepared statement of `sql`, its values bound; an error names the input and what SQLite says.
    func statement(_ sql: String, binding values: [String] = []) throws(GeoConvError) -> Statement {
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else {
            throw failure(message)
        }
        let statement = Statement(prepared, database: self)
        for (index, value) in values.enumerated() {
            sqlite3_bind_text(prepared, Int32(index + 1), value, -1, Self.transient)
        }
        return statement
    }

    /// The rows of `sql`, each as its columns' texts (`nil` for NULL): for the small tables
    /// that describe the file.
    func rows(_ sql: String, binding values: [String] = []) throws(GeoConvError) -> [[String?]] {
        let statement = try statement(sql, binding: values)
        var rows: [[String?]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.text($0) })
        }
        return rows
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns. (The C macro
    /// casts -1 to a function pointer, which Swift does not import.)
    static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// A prepared statement, finalized when let go.
    final class Statement {
        private let pointer: OpaquePointer
        private let database: GeoPackageDatabase
        let columnCount: Int

        init(_ pointer: OpaquePointer, database: GeoPackageDatabase) {
            self.pointer = pointer
            self.database = database
            columnCount = Int(sqlite3_column_count(pointer))
        }

        deinit { sqlite3_finalize(pointer) }

        /// Steps to the next row; `false` after the last.
        func step() throws(GeoConvError) -> Bool {
            switch sqlite3_step(pointer) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw stepFailure()
            }
        }

        private func stepFailure() -> GeoConvError {
            let code = sqlite3_errcode(database.handle)
            if !database.writes, code != SQLITE_FULL, code != SQLITE_IOERR {
                return GeoConvError(
                    .invalidInput, "the GeoPackage cannot be read: \(database.message)",
                    at: SourceLocation(file: database.name), hint: "the file may be damaged or truncated")
            }
            return database.failure(database.message)
        }

        /// Runs a statement that returns no rows (a row's insert), then readies it to run
        /// again; `false` when the row broke a constraint (an id given twice as the key).
        func run() throws(GeoConvError) -> Bool {
            let code = sqlite3_step(pointer)
            sqlite3_reset(pointer)
            switch code {
            case SQLITE_DONE, SQLITE_ROW: return true
            case SQLITE_CONSTRAINT: return false
            default: throw stepFailure()
            }
        }

        /// Sets every parameter to NULL.
        func clearBindings() { sqlite3_clear_bindings(pointer) }

        /// Binds an integer, a real, text or bytes to the parameter `index` (from 1); an
        /// unbound parameter is NULL (`clearBindings`).
        func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(pointer, index, value) }
        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(pointer, index, value) }
        func bind(_ index: Int32, text bytes: UnsafeRawBufferPointer) {
            // (A null pointer would bind NULL: empty text is bound from a C string.)
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                _ = "".withCString { sqlite3_bind_text(pointer, index, $0, 0, GeoPackageDatabase.transient) }
                return
            }
            sqlite3_bind_text(
                pointer, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                GeoPackageDatabase.transient)
        }
        func bind(_ index: Int32, blob bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                sqlite3_bind_zeroblob(pointer, index, 0)
                return
            }
            sqlite3_bind_blob(pointer, index, base, Int32(bytes.count), GeoPackageDatabase.transient)
        }
        func bind(_ index: Int32, _ text: String) {
            sqlite3_bind_text(pointer, index, text, -1, GeoPackageDatabase.transient)
        }

        func name(_ column: Int) -> String {
            sqlite3_column_name(pointer, Int32(column)).map { String(cString: $0) } ?? ""
        }

        /// A column's value as SQLite stores it in this row.
        func value(_ column: Int) -> StoredValue {
            let index = Int32(column)
            switch sqlite3_column_type(pointer, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(pointer, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(pointer, index))
            case SQLITE_TEXT: return .text(text(column) ?? "")
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(pointer, index))
                guard count > 0, let base = sqlite3_column_blob(pointer, index) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
            default: return .null
            }
        }

        /// `body` on a column's bytes in place when the row holds a blob there (valid until
        /// the statement steps on); `nil` for any other value.
        func withBlob<Result>(
            _ column: Int, _ body: (UnsafeRawBufferPointer) throws(GeoConvError) -> Result
        ) throws(GeoConvError) -> Result? {
            let index = Int32(column)
            guard sqlite3_column_type(pointer, index) == SQLITE_BLOB else { return nil }
            let count = Int(sqlite3_column_bytes(pointer, index))
            guard count > 0, let base = sqlite3_column_blob(pointer, index) else {
                return try body(UnsafeRawBufferPointer(start: nil, count: 0))
            }
            return try body(UnsafeRawBufferPointer(start: base, count: count))
        }

        /// A column's text, whole (a NUL inside it too).
        func text(_ column: Int) -> String? {
            guard let text = sqlite3_column_text(pointer, Int32(column)) else { return nil }
            let count = Int(sqlite3_column_bytes(pointer, Int32(column)))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }
    }

    /// A value as SQLite stores it (its storage class).
    enum StoredValue {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }
}
#endif
