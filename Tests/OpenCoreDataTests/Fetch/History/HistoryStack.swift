import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// Albums and photos in an SQLite store recording persistent history; a
/// photo's name is preserved in history when the photo is deleted.
enum HistoryStack {
    static func model() -> NSManagedObjectModel {
        let model = TestStack.albumsModel()
        let photo = model.entitiesByName["Photo"]!
        (photo.propertiesByName["name"] as! NSAttributeDescription).preservesValueInHistoryOnDeletion = true
        (photo.propertiesByName["index"] as! NSAttributeDescription).preservesValueInHistoryOnDeletion = true
        return model
    }

    static var trackingOptions: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true as NSNumber] }

    /// A private-queue context on a new coordinator of `url` (a new file by default), tracking history.
    static func context(_ url: URL = TestStack.temporaryStoreURL(), model: NSManagedObjectModel = model(),
                        options: [AnyHashable: Any] = trackingOptions) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The transactions (with changes) after `token`.
    static func history(_ context: NSManagedObjectContext, after token: NSPersistentHistoryToken? = nil) throws
        -> [NSPersistentHistoryTransaction] {
        try context.performAndWait {
            let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token))
            return try #require((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
        }
    }

    /// A plain SQLite connection to the store file, as another program reads it.
    static func file(_ context: NSManagedObjectContext) throws -> DatabaseQueue {
        try DatabaseQueue(path: context.persistentStoreCoordinator!.persistentStores[0].url!.path)
    }
}
