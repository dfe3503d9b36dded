/// The entities history fetch requests name (`NSPersistentHistoryTransaction.fetchRequest`,
/// `NSPersistentHistoryChange.fetchRequest`): Apple keeps them in a private
/// model; here they are a small model of their own, made once. A request's
/// entity says whether its predicate selects transactions or changes.
enum PersistentHistoryEntities {
    static let transaction: NSEntityDescription = model.entitiesByName["Transaction"]!
    static let change: NSEntityDescription = model.entitiesByName["Change"]!

    private static let model: NSManagedObjectModel = {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let transaction = NSEntityDescription(), change = NSEntityDescription()
        transaction.name = "Transaction"
        change.name = "Change"
        let changes = NSRelationshipDescription(), owner = NSRelationshipDescription()
        (changes.name, changes.destinationEntity, changes.maxCount) = ("changes", change, 0)
        (owner.name, owner.destinationEntity, owner.maxCount) = ("transaction", transaction, 1)
        (changes.inverseRelationship, owner.inverseRelationship) = (owner, changes)
        (changes.isOptional, owner.isOptional) = (true, true)
        transaction.properties = [
            attribute("author", .stringAttributeType), attribute("bundleID", .stringAttributeType),
            attribute("contextName", .stringAttributeType), attribute("processID", .stringAttributeType),
            attribute("storeID", .stringAttributeType), attribute("timestamp", .dateAttributeType),
            attribute("transactionNumber", .integer64AttributeType), changes,
        ]
        change.properties = [
            attribute("changeID", .integer64AttributeType), attribute("changeType", .integer64AttributeType),
            attribute("changedEntity", .transformableAttributeType),
            attribute("changedObjectID", .transformableAttributeType),
            attribute("tombstone", .transformableAttributeType),
            attribute("updatedProperties", .transformableAttributeType), owner,
        ]
        let model = NSManagedObjectModel()
        model.entities = [transaction, change]
        return model
    }()
}
