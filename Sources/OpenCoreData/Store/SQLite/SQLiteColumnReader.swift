import GRDB
import GRDBSQLite

/// Reads the current row of a stepped statement by column position with
/// SQLite's C API: the common attribute types (integers, booleans, floating
/// point, dates, strings) straight from `sqlite3_column_*`, the others
/// through `DatabaseValue` and ``SQLiteValueCoding``, with the same results.
///
/// Nothing here traps on a value of an unexpected storage class: a store
/// file is untrusted input, and such a value reads as `SQLiteValueCoding`
/// reads it (nil where it does not fit).
struct SQLiteColumnReader {
    let statement: SQLiteStatement

    /// The integer in column `index` of `row`; nil for NULL or any other
    /// storage class (GRDB's typed subscripts trap on those).
    static func integer(in row: Row, at index: Int) -> Int64? {
        guard case .int64(let integer) = (row[index] as DatabaseValue).storage else { return nil }
        return integer
    }

    /// The integer in column `index`; nil for NULL or any other storage class.
    func integer(_ index: Int) -> Int64? {
        guard sqlite3_column_type(statement, CInt(index)) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(statement, CInt(index))
    }

    /// The value of `attribute` in column `index`, in the attribute's Swift
    /// type; nil for NULL. `external` resolves a blob kept outside the database.
    func value(_ index: Int, for attribute: NSAttributeDescription, external: (Data) -> Data?) -> Any? {
        let column = CInt(index)
        let storage = sqlite3_column_type(statement, column)
        if storage == SQLITE_NULL { return nil }
        switch (attribute.attributeType, storage) {
        case (.integer64AttributeType, SQLITE_INTEGER): return sqlite3_column_int64(statement, column)
        case (.integer32AttributeType, SQLITE_INTEGER): return Int32(exactly: sqlite3_column_int64(statement, column))
        case (.integer16AttributeType, SQLITE_INTEGER): return Int16(exactly: sqlite3_column_int64(statement, column))
        case (.booleanAttributeType, SQLITE_INTEGER): return sqlite3_column_int64(statement, column) != 0
        case (.doubleAttributeType, SQLITE_FLOAT): return sqlite3_column_double(statement, column)
        case (.floatAttributeType, SQLITE_FLOAT): return Float(sqlite3_column_double(statement, column))
        case (.dateAttributeType, SQLITE_FLOAT):
            return Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, column))
        case (.stringAttributeType, SQLITE_TEXT): return String(sqliteStatement: statement, index: column)
        default:
            let value = DatabaseValue(sqliteStatement: statement, index: column)
            return SQLiteValueCoding.value(value, for: attribute, external: external)
        }
    }
}
