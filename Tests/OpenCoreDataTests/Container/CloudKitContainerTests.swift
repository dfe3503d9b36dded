import Testing
@testable import OpenCoreDataCore

/// NSPersistentCloudKitContainer on a platform without CloudKit: local stores, said once.
@Suite struct CloudKitContainerTests {
    @Test func loadingSaysOnceThatCloudKitSyncIsNotAvailable() throws {
        let container = NSPersistentCloudKitContainer(name: "FrozenTime",
                                                      managedObjectModel: SeedModels.frozenTime())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        description.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(
            containerIdentifier: "iCloud.org.example")
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        // Loading said it (now or in an earlier test); no later call says it again.
        #expect(CloudKitAvailability.noteUnavailable() == false)
        #expect(CloudKitAvailability.noteUnavailable() == false)
    }

    @Test func descriptionCopiesKeepTheCloudKitOptions() {
        let description = NSPersistentStoreDescription()
        description.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(
            containerIdentifier: "iCloud.org.example")
        let copy = description.copy() as? NSPersistentStoreDescription
        #expect(copy?.cloudKitContainerOptions?.containerIdentifier == "iCloud.org.example")
    }
}
