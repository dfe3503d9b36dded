/// Transformable attribute values through their value transformer, as Core
/// Data stores them: a keyed archive for the default transformer (no name, or
/// NSKeyedUnarchiveFromData) and for NSSecureUnarchiveFromData. Linux's
/// Foundation has no `ValueTransformer` registry, so values of any other
/// (custom) transformer stay the stored Data.
///
/// Reading never fails: bytes that do not decode (an archive of a class
/// Linux lacks, such as UIColor) stay Data.
/// Data given to a transformable attribute is stored as is, as before
/// transformers were supported.
enum SQLiteTransformableCoding {
    /// The names under which Core Data's keyed-archive transformers appear in model files.
    static let defaultNames: Set<String> = ["", "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName"]
    static let secureNames: Set<String> = ["NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer",
                                           "NSSecureUnarchiveFromDataTransformerName"]

    /// What NSSecureUnarchiveFromDataTransformer allows: Foundation's property-list and value classes.
    static let secureClasses: [AnyClass] = [NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self,
                                            NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]

    /// The attribute value stored as `data`.
    static func value(_ data: Data, for attribute: NSAttributeDescription) -> Any {
        let name = attribute.valueTransformerName ?? ""
        if defaultNames.contains(name) || secureNames.contains(name) {
            guard data.starts(with: Data("bplist00".utf8)) else { return data }
            let decoded = secureNames.contains(name)
                ? try? NSKeyedUnarchiver.unarchivedObject(ofClasses: secureClasses, from: data)
                : try? NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data)
            return decoded.flatMap { $0 }.map(swiftValue) ?? data
        }
        return data
    }

    /// The bytes to store for `value`, or nil when it cannot be archived.
    static func data(_ value: Any, for attribute: NSAttributeDescription) -> Data? {
        if let data = value as? Data { return data }
        let name = attribute.valueTransformerName ?? ""
        // NSKeyedArchiver traps on what it cannot encode, so only Foundation objects reach it.
        guard defaultNames.contains(name) || secureNames.contains(name), let object = foundationObject(value) else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: secureNames.contains(name))
    }

    /// The Swift value of an unarchived object (URL for NSURL…): on Linux,
    /// `as?` does not bridge Foundation's classes to their Swift types.
    static func swiftValue(_ object: Any) -> Any {
        switch object {
        case let url as NSURL: URL._unconditionallyBridgeFromObjectiveC(url)
        case let string as NSString: String._unconditionallyBridgeFromObjectiveC(string)
        case let date as NSDate: Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let uuid as NSUUID: UUID(uuidString: uuid.uuidString) ?? uuid
        case let data as NSData: Data(referencing: data)
        case let array as NSArray: array.map(swiftValue)
        case let dictionary as NSDictionary:
            Dictionary(dictionary.allKeys.map { key in ((swiftValue(key) as? AnyHashable) ?? AnyHashable("\(key)"), swiftValue(dictionary[key]!)) },
                       uniquingKeysWith: { a, _ in a })
        case let set as NSSet: set.allObjects.map(swiftValue)
        default: object
        }
    }

    /// The Foundation object NSKeyedArchiver encodes for a Swift value, or nil.
    static func foundationObject(_ value: Any) -> NSObject? {
        switch value {
        case let url as URL: url._bridgeToObjectiveC()
        case let string as String: string._bridgeToObjectiveC()
        case let date as Date: date._bridgeToObjectiveC()
        case let uuid as UUID: uuid._bridgeToObjectiveC()
        case let number as NSNumber: number
        case let bool as Bool: NSNumber(value: bool)
        case let int as Int: NSNumber(value: int)
        case let double as Double: NSNumber(value: double)
        case let array as [Any]:
            array.map(foundationObject).contains(nil) ? nil : NSArray(array: array.compactMap(foundationObject))
        case let dictionary as [String: Any]:
            dictionary.values.contains { foundationObject($0) == nil }
                ? nil : NSDictionary(dictionary: dictionary.mapValues { foundationObject($0)! })
        case let object as NSObject & NSCoding: object
        default: nil
        }
    }
}
