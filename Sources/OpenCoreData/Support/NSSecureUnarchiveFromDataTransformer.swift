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

    /// True: an object archives back to `Data`, which Core Data needs to save a transformable value.
    open override class func allowsReverseTransformation() -> Bool { true }

    /// The unarchived object, or nil when `value` is not an archive of allowed classes.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return KeyedArchive.unarchive(data, allowedClasses: Self.allowedTopLevelClasses)
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
        return KeyedArchive.unarchive(data, allowedClasses: nil)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let object = value as? NSObject & NSCoding else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    }
}

/// Unarchiving that ends in nil, never a trap, whatever the bytes: a stored
/// archive is untrusted input. swift-corelibs-foundation's NSKeyedUnarchiver
/// stops the program on a damaged archive read through
/// `unarchiveTopLevelObjectWithData` (its `init(forReadingWith:)` raises)
/// and, under secure coding, on any class outside the allowed ones
/// ("Value was of unexpected class"). So the archive is read with
/// `init(forReadingFrom:)` (which throws), failures set the error instead of
/// raising, and the classes it names are checked here before decoding; the
/// decoding itself then runs without the runtime's secure-coding check.
/// Foundation's collections also decode without checks of their own (an
/// NSDictionary with fewer objects than keys read past its buffer), so the
/// archive's object graph is checked first too (``isWellFormed(_:)``).
enum KeyedArchive {
    /// The deepest nesting of objects decoded (the unarchiver recurses).
    static let maximumDepth = 200

    /// The root object of the keyed archive `data`; nil when it is damaged or,
    /// with `allowedClasses`, names a class that is none of them nor a subclass.
    static func unarchive(_ data: Data, allowedClasses: [AnyClass]?) -> Any? {
        guard let plist = try? UntrustedPropertyList.propertyList(from: data) as? [String: Any],
              isWellFormed(plist) else { return nil }
        if let allowedClasses, !namesOnly(allowedClasses, in: plist) { return nil }
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        let object = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        unarchiver.finishDecoding()
        return unarchiver.error == nil ? object : nil
    }

    /// Whether every class the archive names (`$classname`, `$classhints`)
    /// that exists here is one of `allowed` or a subclass of one.
    private static func namesOnly(_ allowed: [AnyClass], in plist: [String: Any]) -> Bool {
        guard let objects = plist["$objects"] as? [Any] else { return false }
        for case let entry as [String: Any] in objects {
            let names = [entry["$classname"] as? String].compactMap { $0 }
                + (entry["$classhints"] as? [String] ?? [])
            for name in names {
                guard let found = NSKeyedUnarchiver.class(forClassName: name) ?? NSClassFromString(name) else {
                    continue
                }
                guard let object = found as? NSObject.Type,
                      allowed.contains(where: { object.isSubclass(of: $0) }) else { return false }
            }
        }
        return true
    }

    /// The index an archive's object reference (a plist UID) holds, nil for other values.
    /// Foundation's UID class is internal; its `value` is read through reflection.
    static func reference(_ value: Any) -> Int? {
        guard String(describing: type(of: value)) == "_NSKeyedArchiverUID" else { return nil }
        let value = Mirror(reflecting: value).children.first { $0.label == "value" }?.value
        return (value as? UInt32).map(Int.init)
    }

    /// Whether the archive is one NSKeyedArchiver could have written, as far as
    /// decoding it safely needs: its header; references inside `$objects`; a
    /// class for each object; no object that is itself a reference; collections
    /// whose elements are references to objects (not `$null`), a dictionary
    /// with as many objects as keys; no cycle of references and no nesting
    /// deeper than ``maximumDepth``.
    static func isWellFormed(_ plist: [String: Any]) -> Bool {
        guard plist["$archiver"] as? String == "NSKeyedArchiver",
              (plist["$version"] as? NSNumber)?.intValue == 100_000, let top = plist["$top"] as? [String: Any],
              let objects = plist["$objects"] as? [Any] else { return false }
        var done = Set<Int>(), open = Set<Int>()

        func elements(_ value: Any?) -> [Int]? {
            guard let array = value as? [Any] else { return nil }
            let indexes = array.compactMap(reference)
            guard indexes.count == array.count,
                  indexes.allSatisfy({ $0 < objects.count && objects[$0] as? String != "$null" }) else { return nil }
            return indexes
        }

        func check(_ index: Int, depth: Int) -> Bool {
            guard index < objects.count, depth <= maximumDepth, !open.contains(index) else { return false }
            if done.contains(index) { return true }
            guard reference(objects[index]) == nil else { return false }
            guard let object = objects[index] as? [String: Any] else { done.insert(index); return true }
            guard let classIndex = object["$class"].flatMap(reference), classIndex < objects.count,
                  let classInfo = objects[classIndex] as? [String: Any],
                  let name = classInfo["$classname"] as? String else { return false }
            var children: [Int] = []
            switch name {
            case "NSDictionary", "NSMutableDictionary":
                guard let keys = elements(object["NS.keys"]), let values = elements(object["NS.objects"]),
                      keys.count == values.count else { return false }
                children = keys + values
            case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
                guard let values = object["NS.objects"] == nil ? [] : elements(object["NS.objects"]) else {
                    return false
                }
                children = values
            case "NSString", "NSMutableString":
                guard object["NS.string"] == nil || object["NS.string"] is String else { return false }
            case "NSUUID":
                guard (object["NS.uuidbytes"] as? Data)?.count == 16 else { return false }
            default:
                break
            }
            for (key, value) in object where key != "$class" {
                if let child = reference(value) { children.append(child) }
                if let array = value as? [Any] { children += array.compactMap(reference) }
            }
            open.insert(index)
            defer { open.remove(index) }
            guard children.allSatisfy({ check($0, depth: depth + 1) }) else { return false }
            done.insert(index)
            return true
        }

        return top.values.allSatisfy { value in reference(value).map { check($0, depth: 0) } ?? true }
    }
}
