/// Finding the type names in a custom class spelling (`[String]`,
/// `[Tag: Color]`, `MyApp.Box`) that neither the standard library nor
/// Foundation nor the generated code declares.
enum CustomTypeNames {
    /// The names in `spelling` the generated code can't resolve by itself.
    static func unknownNames(in spelling: String, known: Set<String>) -> [String] {
        var names: [String] = []
        var current = ""
        var qualified = false
        func finish() {
            if !current.isEmpty, !qualified, !builtIn.contains(current), !known.contains(current), !names.contains(current) {
                names.append(current)
            }
            current = ""
        }
        for character in spelling {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                finish()
                // After `Module.` only the first component can be declared here.
                qualified = character == "."
            }
        }
        finish()
        return names
    }

    /// Types every generated file sees through `import Foundation`.
    private static let builtIn: Set<String> = [
        "Any", "AnyObject", "AnyHashable", "Array", "Dictionary", "Set", "Optional", "String", "Character",
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "Data", "Date", "URL", "UUID", "Decimal", "IndexSet", "DateComponents",
        "Measurement", "Locale", "TimeZone", "Calendar", "CGFloat", "CGPoint", "CGSize", "CGRect", "TimeInterval",
        "NSObject", "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSOrderedSet", "NSMutableOrderedSet", "NSString", "NSMutableString", "NSNumber", "NSDecimalNumber",
        "NSData", "NSMutableData", "NSDate", "NSURL", "NSUUID", "NSValue", "NSNull", "NSIndexSet", "NSAttributedString",
        "NSMutableAttributedString", "NSCoding", "NSSecureCoding", "NSDateComponents", "NSLocale", "NSTimeZone",
        "NSManagedObject", "NSManagedObjectID", "Foundation", "Swift",
    ]
}
