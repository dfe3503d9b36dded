import OpenCoreData

/// Values as JSONSerialization accepts them, chosen to survive a round trip
/// through other tools: dates in ISO 8601 with milliseconds, binary data in Base64, decimals
/// as strings (a double would lose digits).
enum JSONValue {
    static func from(_ value: Any?) -> Any {
        switch value {
        case nil, is NSNull: NSNull()
        case let value as String: value
        case let value as Bool: value
        case let value as Int: value
        case let value as Int64: value
        case let value as Double: value
        case let value as Decimal: "\(value)"
        case let value as Date: iso8601(value)
        case let value as Data: value.base64EncodedString()
        case let value as UUID: value.uuidString
        case let value as URL: value.absoluteString
        case let value as NSManagedObjectID: value.uriRepresentation().absoluteString
        case let value as NSManagedObject: value.objectID.uriRepresentation().absoluteString
        case let value as NSNumber: value
        case let value as [String: Any]: value.mapValues { from($0) }
        case let value as [Any]: value.map { from($0) }
        case let value?: "\(value)"
        }
    }

    /// With milliseconds: Core Data keeps fractions of seconds.
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// A JSON document, pretty-printed with sorted keys so output is stable.
    static func document(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
