import Foundation
import CoreData

/// A hand-written managed object class (Codegen "Manual/None"): properties in
/// the class body, its own fetch request, a default set on insert, a derived
/// value and validation of its own.
@objc(Tag)
public final class Tag: NSManagedObject {
    @NSManaged public var name: String
    @NSManaged public var createdAt: Date?
    @NSManaged public var photos: Set<Photo>

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Tag> {
        NSFetchRequest<Tag>(entityName: "Tag")
    }

    public override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Date(), forKey: "createdAt")
    }

    /// "#name (3)".
    public var label: String { "#\(name) (\(photos.count))" }

    /// A tag is one word.
    public override func validateForInsert() throws {
        try super.validateForInsert()
        if name.contains(" ") {
            throw NSError(domain: "Gallery", code: 1, userInfo: [NSLocalizedDescriptionKey: "A tag is one word."])
        }
    }
}
