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
///
/// Each column is looked up once (`sqlite3_column_value`), then its storage
/// class and value are read from the value: every `sqlite3_column_*` call
/// looks the column up again and enters and leaves the connection's mutex
/// (~55 instructions a call, ~15 for a `sqlite3_value_*` call). SQLite
/// calls such a value unprotected: reading it is safe on the thread that
/// steps the statement, which is the only one using the connection.
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
        let value = sqlite3_column_value(statement, CInt(index))
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { return nil }
        return sqlite3_value_int64(value)
    }

    /// The text in column `index` (up to its first NUL byte, as GRDB reads
    /// text); nil for NULL or any other storage class.
    func text(_ index: Int) -> String? {
        let value = sqlite3_column_value(statement, CInt(index))
        guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else { return nil }
        return String(cString: text)
    }

    /// How a column is read: the attribute types read straight from
    /// `sqlite3_column_*`, and the rest (through `SQLiteValueCoding`).
    enum Kind {
        case integer64, integer32, integer16, boolean, double, float, date, string, other

        init(_ type: NSAttributeType) {
            switch type {
            case .integer64AttributeType: self = .integer64
            case .integer32AttributeType: self = .integer32
            case .integer16AttributeType: self = .integer16
            case .booleanAttributeType: self = .boolean
            case .doubleAttributeType: self = .double
            case .floatAttributeType: self = .float
            case .dateAttributeType: self = .date
            case .stringAttributeType: self = .string
            default: self = .other
            }
        }
    }

    /// The value of `attribute` in column `index` as a slot holds it, in the
    /// attribute's Swift type; none for NULL. `kind` is the attribute's
    /// (`Kind(attribute.attributeType)`), worked out once per query rather
    /// than per value; `external` resolves a blob kept outside the database.
    /// `attribute` is asked for only by the kinds read through `SQLiteValueCoding`.
    func slotValue(_ index: Int, kind: Kind, for attribute: @autoclosure () -> NSAttributeDescription,
                   external: (Data) -> Data?) -> SlotValue {
        let column = CInt(index)
        let value = sqlite3_column_value(statement, column)
        let storage = sqlite3_value_type(value)
        if storage == SQLITE_NULL { return .none }
        switch (kind, storage) {
        case (.integer64, SQLITE_INTEGER): return .int64(sqlite3_value_int64(value))
        case (.integer32, SQLITE_INTEGER):
            return Int32(exactly: sqlite3_value_int64(value)).map(SlotValue.int32) ?? .none
        case (.integer16, SQLITE_INTEGER):
            return Int16(exactly: sqlite3_value_int64(value)).map(SlotValue.int16) ?? .none
        case (.boolean, SQLITE_INTEGER): return .bool(sqlite3_value_int64(value) != 0)
        // A TIMESTAMP column has NUMERIC affinity, so SQLite keeps a date of whole seconds as an
        // INTEGER; `sqlite3_value_double` converts either storage class as `Double.fromDatabaseValue` does.
        case (.double, SQLITE_FLOAT), (.double, SQLITE_INTEGER): return .double(sqlite3_value_double(value))
        case (.float, SQLITE_FLOAT), (.float, SQLITE_INTEGER): return .float(Float(sqlite3_value_double(value)))
        case (.date, SQLITE_FLOAT), (.date, SQLITE_INTEGER):
            return .date(Date(timeIntervalSinceReferenceDate: sqlite3_value_double(value)))
        // As GRDB reads text (`String(cString:)`): up to the first NUL byte.
        case (.string, SQLITE_TEXT): return .string(String(cString: sqlite3_value_text(value)!))
        default:
            let value = DatabaseValue(sqliteStatement: statement, index: column)
            return SlotValue(attribute: SQLiteValueCoding.value(value, for: attribute(), external: external))
        }
    }
}
