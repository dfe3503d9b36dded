@testable import OpenCoreDataCore
import TestScratch

/// Models and stacks for the fetched-results tests.
enum FetchedResultsModels {
    /// Seed 002's FailedBankInfo ⟶ FailedBankDetails (to-one `details`, with
    /// `closeDate`), the table-view walk-through's entities.
    static func failedBanks() -> NSManagedObjectModel {
        let info = NSEntityDescription(name: "FailedBankInfo")
        let details = NSEntityDescription(name: "FailedBankDetails")
        let detailsOf = TestStack.relationship("details", to: details, rule: .cascadeDeleteRule)
        let infoOf = TestStack.relationship("info", to: info)
        TestStack.pair(detailsOf, infoOf)
        info.properties = [TestStack.attribute("name", .stringAttributeType), TestStack.attribute("city", .stringAttributeType),
                           TestStack.attribute("state", .stringAttributeType), detailsOf]
        details.properties = [TestStack.attribute("closeDate", .dateAttributeType), TestStack.attribute("zip", .integer32AttributeType), infoOf]
        let model = NSManagedObjectModel()
        model.entities = [info, details]
        return model
    }

    /// One entity with a sort key, a section key, a predicate key and a name.
    static func items() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item")
        item.properties = [TestStack.attribute("name", .stringAttributeType), TestStack.attribute("rank", .integer32AttributeType),
                           TestStack.attribute("group", .stringAttributeType), TestStack.attribute("visible", .booleanAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    /// The in-memory store, and the SQLite store once it is registered.
    static var storeTypes: [NSPersistentStore.StoreType] {
        [.inMemory] + (NSPersistentStoreCoordinator.registeredStoreTypesByName[NSSQLiteStoreType] != nil ? [.sqlite] : [])
    }

    /// A context on a new store of `type`: in memory, or SQLite in a temporary file.
    static func context(_ model: NSManagedObjectModel, storeType: NSPersistentStore.StoreType = .inMemory) throws -> NSManagedObjectContext {
        guard storeType != .inMemory else { return try TestStack.context(model) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = ScratchDirectory.url("frc-\(UUID().uuidString).sqlite")
        try coordinator.addPersistentStore(type: storeType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
}
