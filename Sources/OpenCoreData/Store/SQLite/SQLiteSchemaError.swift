/// A model the SQLite layout cannot store.
struct SQLiteSchemaError: Error, CustomStringConvertible {
    var description: String

    static func unsupported(_ attribute: NSAttributeDescription) -> SQLiteSchemaError {
        SQLiteSchemaError(description: "\(attribute.entity?.name ?? "?").\(attribute.name): attributes of type "
            + "\(attribute.attributeType.modelFileName ?? "Undefined") have no SQLite column (composite layout is unknown)")
    }
}
