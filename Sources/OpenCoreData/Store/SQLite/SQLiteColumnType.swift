/// The declared type Core Data writes for a column of its SQLite tables.
///
/// SQLite itself only uses these names for type affinity; Core Data reads them
/// back to know how a value is stored (a `TIMESTAMP` holds seconds since
/// 2001-01-01 as a REAL, a UUID is a 16-byte `BLOB`).
enum SQLiteColumnType: String, Sendable {
    case integer = "INTEGER"
    case float = "FLOAT"
    case timestamp = "TIMESTAMP"
    case decimal = "DECIMAL"
    case varchar = "VARCHAR"
    case blob = "BLOB"

    /// The column type of a stored attribute of `type`, or nil when the type
    /// has no column (undefined, object ID, composite).
    init?(attributeType type: NSAttributeType) {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            self = .integer
        case .doubleAttributeType, .floatAttributeType: self = .float
        case .dateAttributeType: self = .timestamp
        case .decimalAttributeType: self = .decimal
        case .stringAttributeType, .URIAttributeType: self = .varchar
        case .binaryDataAttributeType, .transformableAttributeType, .UUIDAttributeType: self = .blob
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return nil
        }
    }

    /// The rank of the column's group in a table: Core Data writes integer
    /// columns first, then FLOAT and TIMESTAMP mixed (both hold a REAL), then
    /// DECIMAL, VARCHAR, BLOB (see docs/SQLiteLayout.md for the evidence).
    var groupRank: Int {
        switch self {
        case .integer: 0
        case .float, .timestamp: 1
        case .decimal: 2
        case .varchar: 3
        case .blob: 4
        }
    }
}
