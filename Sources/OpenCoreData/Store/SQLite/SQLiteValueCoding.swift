import GRDB

/// Attribute values as Core Data writes them in SQLite: integers and
/// booleans (0/1) as INTEGER, floating point as REAL, dates as REAL seconds
/// since 2001-01-01, strings and URIs as TEXT, decimals as their text (the
/// DECIMAL column's numeric affinity keeps what it can), data, transformable
/// data and UUIDs (16 bytes) as BLOB. Each conversion costs a copy at most.
enum SQLiteValueCoding {
    /// The column value of `value` for `attribute`. Throws
    /// NSPersistentStoreSaveError for a value SQLite cannot hold as Core Data
    /// would (a transformable value its transformer cannot turn into Data, or
    /// whose transformer is not registered). `external` makes the tagged
    /// column value of the bytes of an attribute that allows external storage
    /// (``SQLiteExternalData``), and throws when it cannot.
    static func databaseValue(_ value: Any?, for attribute: NSAttributeDescription,
                              external: (Data) throws -> DatabaseValue) throws -> DatabaseValue {
        guard var value = ValueCoercion.unwrapped(value) else { return .null }
        if attribute.attributeType == .transformableAttributeType, let data = try SQLiteTransformableCoding.data(value, for: attribute) {
            value = data
        }
        if let converted = databaseValue(value, type: attribute.attributeType) {
            guard attribute.allowsExternalBinaryDataStorage, case .blob(let data) = converted.storage else { return converted }
            return try external(data)
        }
        throw NSError.coreData(NSPersistentStoreSaveError,
                               "\(attribute.entity?.name ?? "").\(attribute.name): a value of type \(type(of: value)) cannot be stored; "
                               + "a transformable value must be Data or something its value transformer turns into Data.",
                               userInfo: [NSValidationKeyErrorKey: attribute.name])
    }

    /// The column value of `value` read as an attribute of `type`, or nil when
    /// it is not such a value. Also used for predicate constants.
    static func databaseValue(_ value: Any, type: NSAttributeType) -> DatabaseValue? {
        // The common attribute types by type identity first: the casts below
        // (`any BinaryInteger` above all) are conformance lookups, paid for
        // every attribute of every saved row.
        let valueType = Swift.type(of: value)
        if valueType == Int64.self { return (value as! Int64).databaseValue }
        if valueType == Int.self { return Int64(value as! Int).databaseValue }
        if valueType == String.self { return (value as! String).databaseValue }
        if valueType == Double.self { return (value as! Double).databaseValue }
        if valueType == Date.self { return (value as! Date).timeIntervalSinceReferenceDate.databaseValue }
        switch value {
        case let bool as Bool: return (bool ? 1 : 0).databaseValue
        case let int as any BinaryInteger:
            guard let exact = Int64(exactly: int) else { return Double(int).databaseValue }
            return exact.databaseValue
        case let double as Double: return double.databaseValue
        case let float as Float: return Double(float).databaseValue
        case let decimal as Decimal:
            return type == .decimalAttributeType ? decimal.description.databaseValue : NSDecimalNumber(decimal: decimal).doubleValue.databaseValue
        case let string as String: return string.databaseValue
        case let date as Date: return date.timeIntervalSinceReferenceDate.databaseValue
        case let data as Data: return data.databaseValue
        case let uuid as UUID: return withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case let url as URL: return url.absoluteString.databaseValue
        case let number as NSNumber: return number.doubleValue.databaseValue
        default: return nil
        }
    }

    /// The attribute value of a column value, in the attribute's Swift type;
    /// nil for NULL. `external` resolves a blob tagged as kept outside the
    /// database.
    static func value(_ dbValue: DatabaseValue, for attribute: NSAttributeDescription,
                      external: (Data) -> Data? = { _ in nil }) -> Any? {
        switch (attribute.attributeType, dbValue.storage) {
        case (_, .null): return nil
        case (.integer16AttributeType, _): return Int64.fromDatabaseValue(dbValue).flatMap { Int16(exactly: $0) }
        case (.integer32AttributeType, _): return Int64.fromDatabaseValue(dbValue).flatMap { Int32(exactly: $0) }
        case (.integer64AttributeType, _): return Int64.fromDatabaseValue(dbValue)
        case (.booleanAttributeType, _): return Int64.fromDatabaseValue(dbValue).map { $0 != 0 }
        case (.doubleAttributeType, _): return Double.fromDatabaseValue(dbValue)
        case (.floatAttributeType, _): return Double.fromDatabaseValue(dbValue).map { Float($0) }
        case (.decimalAttributeType, .string(let text)): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case (.decimalAttributeType, .int64(let int)): return Decimal(int)
        case (.decimalAttributeType, .double(let double)): return Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX"))
        case (.stringAttributeType, _): return String.fromDatabaseValue(dbValue)
        case (.dateAttributeType, _): return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case (.URIAttributeType, .string(let text)): return URL(string: text)
        case (.UUIDAttributeType, .blob(let data)) where data.count == 16:
            return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case (.UUIDAttributeType, .string(let text)): return UUID(uuidString: text)
        case (.binaryDataAttributeType, .blob(let data)), (.transformableAttributeType, .blob(let data)):
            var bytes: Data? = data
            if attribute.allowsExternalBinaryDataStorage, let tag = data.first {
                switch tag {
                case SQLiteExternalData.inlineTag: bytes = data.dropFirst()
                case SQLiteExternalData.externalTag: bytes = external(data.dropFirst())
                default: break
                }
            }
            guard attribute.attributeType == .transformableAttributeType, let bytes else { return bytes }
            return SQLiteTransformableCoding.value(bytes, for: attribute)
        default: return plain(dbValue)
        }
    }

    /// A column value as the Swift value of its storage class.
    static func plain(_ dbValue: DatabaseValue) -> Any? {
        switch dbValue.storage {
        case .null: nil
        case .int64(let int): int
        case .double(let double): double
        case .string(let string): string
        case .blob(let data): data
        }
    }
}
