import Foundation
import OpenCoreData

/// Lightweight migration of the graph store (issue 15): version 2 of the
/// graph model gives Photo a new optional `caption` and renames `rating` to
/// `stars` (renaming identifier `rating`). OpenCoreData migrates when the
/// store is added with both migration options (in place, in SQL, one
/// transaction); raw SQLite runs the same two ALTER TABLE statements in one
/// transaction. Neither loads a row.
enum MigrationWorkloads {
    /// The graph and a `Graph.xcdatamodeld` of its two versions beside it;
    /// the store's metadata carries version 1's hashes, as if version 1 (read
    /// from that bundle) had written it.
    static func prepare(_ photos: Int, _ url: URL) throws {
        try GraphData.populate(photos: photos, at: url)
        try OCDPreparation.adoptGraph(url)
        let bundle = bundleURL(beside: url)
        for (version, photo) in [("Graph 1", photoVersion1), ("Graph 2", photoVersion2)] {
            let folder = bundle.appendingPathComponent(version + ".xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(model(photo).utf8).write(to: folder.appendingPathComponent("contents"))
        }
        let plist = ["_XCCurrentVersionName": "Graph 2.xcdatamodel"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let version1 = try ModelVersionBundle(url: bundle).model(named: "Graph 1")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: version1)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url,
                                                       options: [NSIgnorePersistentStoreVersioningOption: true])
        var metadata = coordinator.metadata(for: store)
        metadata[NSStoreModelVersionHashesKey] = version1.entityVersionHashesByName
        coordinator.setMetadata(metadata, for: store)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait { try context.save() }
        try coordinator.remove(store)
        version2 = try ModelVersionBundle(url: bundle).currentModel()
    }

    /// Version 2, read in the preparation, as an app has its model at hand.
    nonisolated(unsafe) private static var version2: NSManagedObjectModel?

    static func migrateOCD(_ photos: Int, _ url: URL) throws {
        guard let version2 else { throw BenchmarkError("the migration workload was not prepared") }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: version2)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
    }

    static func migrateRaw(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        db.execute("BEGIN")
        db.execute("ALTER TABLE ZPHOTO ADD COLUMN ZCAPTION VARCHAR")
        db.execute("ALTER TABLE ZPHOTO RENAME COLUMN ZRATING TO ZSTARS")
        db.execute("COMMIT")
    }

    private static func bundleURL(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent("Graph.xcdatamodeld")
    }

    private static let photoVersion1 = """
        <attribute name="rating" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
        """
    private static let photoVersion2 = """
        <attribute name="caption" optional="YES" attributeType="String"/>
                <attribute name="stars" optional="YES" attributeType="Integer 64" usesScalarValueType="NO" \
        elementID="rating"/>
        """

    /// The graph model's XML as Xcode writes it, with `photo` among Photo's attributes.
    private static func model(_ photo: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" \
        systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" \
        userDefinedModelVersionIdentifier="">
            <entity name="Album" syncable="YES">
                <attribute name="creationDate" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="photos" optional="YES" toMany="YES" deletionRule="Cascade" \
        destinationEntity="Photo" inverseName="album" inverseEntity="Photo"/>
            </entity>
            <entity name="Photo" syncable="YES">
                <attribute name="creationDate" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="fileSize" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                \(photo)
                <relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify" \
        destinationEntity="Album" inverseName="photos" inverseEntity="Album"/>
            </entity>
        </model>
        """
    }
}
