import GRDB
import GRDBSQLite

/// How a save binds one attribute's slot to its statement parameter: the
/// common attribute types go straight to `sqlite3_bind_*` from the value in
/// the slot, the others (decimals, data, UUIDs, URIs, transformable values,
/// anything that may live in an external file) through ``SQLiteValueCoding``
/// and `DatabaseValue`. Both routes store the same column value; the direct
/// one skips the `Any` → `DatabaseValue` conversion that cost some 900
/// instructions per bound value.
struct SQLiteSlotBinding {
    /// The kind the attribute's values are bound as, the one its column is
    /// read as; `.other` goes through ``SQLiteValueCoding`` (external
    /// storage and transformers included).
    let kind: SQLiteColumnReader.Kind

    /// The binding of `attribute`'s values.
    init(_ attribute: NSAttributeDescription) {
        kind = attribute.allowsExternalBinaryDataStorage ? .other : SQLiteColumnReader.Kind(attribute.attributeType)
    }

    /// SQLite copies text bound with this destructor, so the Swift string
    /// need not outlive the call (SQLite's `SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `value` to parameter `index` of `statement` when this binding
    /// takes it directly: none, or a typed slot value of the attribute's own
    /// type (a bridged number or another type stays `.value`, which the
    /// conversion stores as before).
    /// Returns the SQLite result code, or nil for a value the caller must convert.
    /// Each kind takes one case of `value`, tested once.
    func bindDirectly(_ value: SlotValue, to statement: SQLiteStatement, at index: CInt) -> CInt? {
        switch kind {
        case .integer64: if case .int64(let integer) = value { return sqlite3_bind_int64(statement, index, integer) }
        case .integer32:
            if case .int32(let integer) = value { return sqlite3_bind_int64(statement, index, Int64(integer)) }
        case .integer16:
            if case .int16(let integer) = value { return sqlite3_bind_int64(statement, index, Int64(integer)) }
        case .boolean: if case .bool(let bool) = value { return sqlite3_bind_int64(statement, index, bool ? 1 : 0) }
        case .double: if case .double(let real) = value { return sqlite3_bind_double(statement, index, real) }
        case .float: if case .float(let real) = value { return sqlite3_bind_double(statement, index, Double(real)) }
        case .date:
            if case .date(let date) = value {
                return sqlite3_bind_double(statement, index, date.timeIntervalSinceReferenceDate)
            }
        case .string: if case .string(let string) = value { return Self.bind(string, to: statement, at: index) }
        case .other: break
        }
        return value.isNone ? sqlite3_bind_null(statement, index) : nil
    }

    private static func bind(_ string: String, to statement: SQLiteStatement, at index: CInt) -> CInt {
        var string = string
        return string.withUTF8 { bytes in
            // An empty buffer may have no address, and a NULL pointer would bind NULL, not ''.
            guard let start = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            return sqlite3_bind_text(statement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self),
                                     CInt(bytes.count), transient)
        }
    }
}
