/// Transformable attribute values through the ``ValueTransformer``
/// registered under the attribute's `valueTransformerName`, as Core Data
/// stores them. No name means Core Data's default, NSKeyedUnarchiveFromData.
///
/// Direction: Apple documents that a transformable's transformer "must output
/// an NSData object from transformedValue: and must allow reverse
/// transformations" (NSAttributeDescription.valueTransformerName), so saving
/// calls `transformedValue` and reading `reverseTransformedValue`. The
/// unarchiving transformers (``NSSecureUnarchiveFromDataTransformer`` and
/// its subclasses) are named for the other way, Data to object, and Core Data
/// runs them reversed.
///
/// Reading never fails: bytes that do not decode (an archive of a class
/// Linux lacks, such as UIColor) and values of a transformer nobody
/// registered stay Data. Data given to an unarchiving or unregistered
/// transformer is stored as is, as before transformers were supported.
enum SQLiteTransformableCoding {
    /// The names under which Core Data's unarchiving transformers appear in model files.
    static let defaultNames: Set<String> = ["", "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName"]
    static let secureNames: Set<String> = ["NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer",
                                           "NSSecureUnarchiveFromDataTransformerName"]

    /// The registry name of `attribute`'s transformer, spellings of the built-in ones folded.
    static func transformerName(of attribute: NSAttributeDescription) -> NSValueTransformerName {
        let name = attribute.valueTransformerName ?? ""
        if defaultNames.contains(name) { return .keyedUnarchiveFromDataTransformerName }
        if secureNames.contains(name) { return .secureUnarchiveFromDataTransformerName }
        return NSValueTransformerName(name)
    }

    /// The attribute value stored as `data`.
    static func value(_ data: Data, for attribute: NSAttributeDescription) -> Any {
        switch ValueTransformer.valueTransformer(forName: transformerName(of: attribute)) {
        case let unarchiver as NSSecureUnarchiveFromDataTransformer:
            guard data.starts(with: Data("bplist00".utf8)) else { return data }
            return unarchiver.transformedValue(data).map(swiftValue) ?? data
        case let transformer?:
            return transformer.reverseTransformedValue(data) ?? data
        case nil:
            return data
        }
    }

    /// The bytes to store for `value`, or nil when its transformer cannot turn it into Data.
    /// Throws NSPersistentStoreSaveError when the attribute names a transformer nobody registered.
    static func data(_ value: Any, for attribute: NSAttributeDescription) throws -> Data? {
        let name = transformerName(of: attribute)
        switch ValueTransformer.valueTransformer(forName: name) {
        case let unarchiver as NSSecureUnarchiveFromDataTransformer:
            if let data = value as? Data { return data }
            return foundationObject(value).flatMap { unarchiver.reverseTransformedValue($0) } as? Data
        case let transformer?:
            return transformer.transformedValue(value) as? Data
        case nil:
            if let data = value as? Data { return data }
            throw NSError.coreData(NSPersistentStoreSaveError,
                                   "\(attribute.entity?.name ?? "").\(attribute.name): no value transformer is registered under the name "
                                   + "\"\(name.rawValue)\"; register one with ValueTransformer.setValueTransformer(_:forName:) before saving.",
                                   userInfo: [NSValidationKeyErrorKey: attribute.name])
        }
    }

    /// The Swift value of an unarchived object (URL for NSURL…): on Linux,
    /// `as?` does not bridge Foundation's classes to their Swift types.
    /// The keys and objects of `dictionary`, in pairs.
    static func dictionaryPairs(_ dictionary: NSDictionary) -> [(key: Any, value: Any)] {
        var pairs: [(key: Any, value: Any)] = []
        dictionary.enumerateKeysAndObjects { key, value, _ in pairs.append((key, value)) }
        return pairs
    }

    static func swiftValue(_ object: Any) -> Any {
        switch object {
        case let url as NSURL: URL._unconditionallyBridgeFromObjectiveC(url)
        case let string as NSString: String._unconditionallyBridgeFromObjectiveC(string)
        case let date as NSDate: Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let uuid as NSUUID: UUID(uuidString: uuid.uuidString) ?? uuid
        case let data as NSData: Data(referencing: data)
        case let array as NSArray: array.map(swiftValue)
        case let dictionary as NSDictionary:
            // Keys and objects in pairs: a key need not find its object again (a NaN key, in a stored archive).
            Dictionary(dictionaryPairs(dictionary).map { key, value in
                ((swiftValue(key) as? AnyHashable) ?? AnyHashable("\(key)"), swiftValue(value))
            }, uniquingKeysWith: { a, _ in a })
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
