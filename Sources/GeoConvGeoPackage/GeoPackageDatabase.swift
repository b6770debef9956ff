#if GeoPackage
// Built with the GeoPackage trait (SQLite) only.
import GeoConvCore
// SQLite: the system-library target where pkg-config finds it (Linux), the SDK's module on Apple platforms.
#if canImport(CSQLite)
internal import CSQLite
#elseif canImport(SQLite3)
internal import SQLite3
#endif

/// A GeoPackage's SQLite database opened read-only, and the statements run on it: the one
/// place that speaks SQLite's C API for the reader.
final class GeoPackageDatabase {
    private var handle: OpaquePointer?
    let name: String

    /// Opens the file at `path` read-only; `name` is the input's name in messages.
    init(path: String, name: String) throws(GeoConvError) {
        self.name = name
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error"
            sqlite3_close(handle)
            handle = nil
            throw GeoConvError(
                .invalidInput, "cannot open the GeoPackage: \(message)", at: SourceLocation(file: name),
                hint: "give a .gpkg file (an SQLite database)")
        }
    }

    deinit { sqlite3_close(handle) }

    var message: String { handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error" }

    /// A prepared statement of `sql`, its values bound; an error names the input and what SQLite says.
    func statement(_ sql: String, binding values: [String] = []) throws(GeoConvError) -> Statement {
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else {
            throw GeoConvError(
                .invalidInput, "the GeoPackage cannot be read: \(message)", at: SourceLocation(file: name),
                hint: "check the file with `ogrinfo` or `sqlite3`: it may be damaged or not a GeoPackage")
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
            default:
                throw GeoConvError(
                    .invalidInput, "the GeoPackage cannot be read: \(database.message)",
                    at: SourceLocation(file: database.name), hint: "the file may be damaged or truncated")
            }
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

        func text(_ column: Int) -> String? {
            sqlite3_column_text(pointer, Int32(column)).map { String(cString: $0) }
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
