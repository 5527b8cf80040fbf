import CSQLite
import Foundation

/// A minimal SQLite connection: prepared statements with positional bindings, nothing more.
/// Not thread-safe by design: each connection is used from one thread (the main actor's, or the
/// thread of a searcher, a backfill or the streaming writer, each with a connection of its own).
final class SQLiteDatabase {
    enum Value {
        case text(String)
        case int(Int64)
        case real(Double)
        case null
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var handle: OpaquePointer?

    /// `create: false` opens only a file that is there: a connection opened late (the streaming
    /// writer's) must not make an empty file where a history was deleted.
    init(path: String, create: Bool = true) throws {
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "open failed"
            sqlite3_close(handle)
            throw Failure(description: message)
        }
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw Failure(description: message)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ values: [Value] = []) throws {
        _ = try query(sql, values) { _ in () }
    }

    /// Runs a statement and maps each row.
    func query<T>(_ sql: String, _ values: [Value] = [], _ row: (Row) -> T) throws -> [T] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        // SQLITE_TRANSIENT: SQLite copies the bytes before bind returns.
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .text(let s): sqlite3_bind_text(statement, position, s, -1, transient)
            case .int(let i): sqlite3_bind_int64(statement, position, i)
            case .real(let d): sqlite3_bind_double(statement, position, d)
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        var rows: [T] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(handle))) }
            rows.append(row(Row(statement: statement)))
        }
        return rows
    }

    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    struct Row {
        let statement: OpaquePointer
        func text(_ column: Int32) -> String {
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        }
        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    }
}
