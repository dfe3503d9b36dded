/// The type of an attribute's value, with Apple's raw values (NSAttributeDescription.h).
public enum NSAttributeType: UInt, Sendable, CaseIterable {
    /// No type: legal only for transient attributes.
    case undefinedAttributeType = 0
    /// A 16-bit integer (`Int16`); an `INTEGER` column in SQLite.
    case integer16AttributeType = 100
    /// A 32-bit integer (`Int32`); an `INTEGER` column.
    case integer32AttributeType = 200
    /// A 64-bit integer (`Int64`); an `INTEGER` column.
    case integer64AttributeType = 300
    /// A decimal number (`Decimal`); a `DECIMAL` column, as Core Data declares it.
    case decimalAttributeType = 400
    /// A 64-bit floating-point number (`Double`); a `FLOAT` column.
    case doubleAttributeType = 500
    /// A 32-bit floating-point number (`Float`); a `FLOAT` column.
    case floatAttributeType = 600
    /// Text (`String`); a `VARCHAR` column.
    case stringAttributeType = 700
    /// A Boolean (`Bool`); an `INTEGER` column holding 0 or 1.
    case booleanAttributeType = 800
    /// A point in time (`Date`); a `TIMESTAMP` column holding seconds since 2001-01-01 as a REAL, as
    /// Core Data writes it.
    case dateAttributeType = 900
    /// Bytes (`Data`); a `BLOB` column, or a file under `_EXTERNAL_DATA` beside the store when the
    /// attribute allows external storage and the value is large.
    case binaryDataAttributeType = 1000
    /// A `UUID`; a 16-byte `BLOB` column.
    case UUIDAttributeType = 1100
    /// A `URL`; a `VARCHAR` column holding its absolute string.
    case URIAttributeType = 1200
    /// Any value the ``ValueTransformer`` named by `valueTransformerName` turns into `Data` (without
    /// a name, Core Data's keyed archiving); a `BLOB` column. Bytes that do not decode on Linux (an
    /// archived `UIColor`) are read as `Data`.
    case transformableAttributeType = 1800
    /// An ``NSManagedObjectID``, for expression descriptions of dictionary results; not stored in a
    /// column.
    case objectIDAttributeType = 2000
    /// A group of attributes stored together (``NSCompositeAttributeDescription``); each element has a
    /// column of its own.
    case compositeAttributeType = 2100

    /// The spelling Xcode writes in a model file's `attributeType` (nil for
    /// undefined, which Xcode writes by leaving the attribute out).
    public var modelFileName: String? {
        switch self {
        case .undefinedAttributeType: return nil
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "ObjectID"
        case .compositeAttributeType: return "Composite"
        }
    }

    /// The type Xcode means by a model file's `attributeType` spelling.
    public init?(modelFileName: String) {
        if modelFileName == "Undefined" { self = .undefinedAttributeType; return }
        if modelFileName == "Object ID" { self = .objectIDAttributeType; return }
        guard let type = Self.allCases.first(where: { $0.modelFileName == modelFileName }) else { return nil }
        self = type
    }

    /// The class Core Data uses for values of this type (`attributeValueClassName`).
    public var valueClassName: String? {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            return "NSNumber"
        case .decimalAttributeType: return "NSDecimalNumber"
        case .stringAttributeType: return "NSString"
        case .dateAttributeType: return "NSDate"
        case .binaryDataAttributeType: return "NSData"
        case .UUIDAttributeType: return "NSUUID"
        case .URIAttributeType: return "NSURL"
        case .objectIDAttributeType: return "NSManagedObjectID"
        case .compositeAttributeType: return "NSDictionary"
        case .undefinedAttributeType, .transformableAttributeType: return nil
        }
    }

    /// Whether values of this type are numbers (integers, decimals, floating point).
    public var isNumeric: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .decimalAttributeType, .doubleAttributeType, .floatAttributeType:
            return true
        default: return false
        }
    }
}
