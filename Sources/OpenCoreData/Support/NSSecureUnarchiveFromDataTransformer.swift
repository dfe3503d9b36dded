import Foundation

/// Turns a keyed archive (Data) into the object it holds, decoding only
/// ``allowedTopLevelClasses`` with secure coding, and back. Registered as
/// `NSSecureUnarchiveFromData`; subclass it and override
/// ``allowedTopLevelClasses`` to admit your own NSSecureCoding classes, as on
/// Apple platforms.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    /// What Apple's allows: Foundation's property-list and value classes.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self,
         NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    open override class func allowsReverseTransformation() -> Bool { true }

    /// The unarchived object, or nil when `value` is not an archive of allowed classes.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return (try? NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowedTopLevelClasses, from: data)) ?? nil
    }

    /// The keyed archive of `value`, or nil when it is not an NSCoding object.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        // NSKeyedArchiver traps on what it cannot encode, so only NSCoding objects reach it.
        guard let object = value as? NSObject & NSCoding else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    }
}

/// Core Data's default transformer (`NSKeyedUnarchiveFromData`): like the
/// secure one but decoding any NSCoding class. Apple does not expose its class.
final class NSKeyedUnarchiveFromDataTransformer: NSSecureUnarchiveFromDataTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return (try? NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data)) ?? nil
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let object = value as? NSObject & NSCoding else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }
}
