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

    /// `value`, whose dynamic type the caller checked is exactly `T`, read
    /// from the `Any`'s own buffer: a value of a bitwise-copyable type of at
    /// most three words lies there, at its start (Swift's existential
    /// layout), where `as!` went through the runtime's dynamic cast, about
    /// 255 instructions per bound value.
    @inline(__always)
    private static func inline<T: BitwiseCopyable>(_ value: Any, as _: T.Type) -> T {
        assert(type(of: value) == T.self && MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size)
        return withUnsafeBytes(of: value) { $0.load(as: T.self) }
    }

    /// Binds `value` to parameter `index` of `statement` when this binding
    /// takes it directly: nil or a value of exactly the attribute's Swift
    /// type (by type identity: a cast would also take bridged numbers, which
    /// the conversion stores differently).
    /// Returns the SQLite result code, or nil for a value the caller must
    /// convert (another type, such as an Optional boxed in `Any`).
    func bindDirectly(_ value: SlotValue, to statement: SQLiteStatement, at index: CInt) -> CInt? {
        guard case .value(let value) = value else {
            return value.isNone ? sqlite3_bind_null(statement, index) : nil
        }
        switch kind {
        case .integer64:
            guard type(of: value) == Int64.self else { return nil }
            return sqlite3_bind_int64(statement, index, Self.inline(value, as: Int64.self))
        case .integer32:
            guard type(of: value) == Int32.self else { return nil }
            return sqlite3_bind_int64(statement, index, Int64(Self.inline(value, as: Int32.self)))
        case .integer16:
            guard type(of: value) == Int16.self else { return nil }
            return sqlite3_bind_int64(statement, index, Int64(Self.inline(value, as: Int16.self)))
        case .boolean:
            guard type(of: value) == Bool.self else { return nil }
            return sqlite3_bind_int64(statement, index, Self.inline(value, as: Bool.self) ? 1 : 0)
        case .double:
            guard type(of: value) == Double.self else { return nil }
            return sqlite3_bind_double(statement, index, Self.inline(value, as: Double.self))
        case .float:
            guard type(of: value) == Float.self else { return nil }
            return sqlite3_bind_double(statement, index, Double(Self.inline(value, as: Float.self)))
        case .date:
            guard type(of: value) == Date.self else { return nil }
            return sqlite3_bind_double(statement, index, (value as! Date).timeIntervalSinceReferenceDate)
        case .string:
            guard type(of: value) == String.self else { return nil }
            var string = value as! String
            return string.withUTF8 { bytes in
                // An empty buffer may have no address, and a NULL pointer would bind NULL, not ''.
                guard let start = bytes.baseAddress else {
                    return sqlite3_bind_text(statement, index, "", 0, Self.transient)
                }
                return sqlite3_bind_text(statement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self),
                                         CInt(bytes.count), Self.transient)
            }
        case .other:
            return nil
        }
    }
}
