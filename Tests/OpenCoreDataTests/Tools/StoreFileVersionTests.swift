import Foundation
import Testing
@testable import OpenCoreDataCore
@testable import OpenCoreDataTools
import TestScratch

/// `ocd`'s StoreFile with a `.xcdatamodeld`: the version that wrote the store
/// is chosen by the store's schema (SQLiteStoreVersionMatching), not the first
/// version that opens it.
@Suite struct StoreFileVersionTests {
    /// "Shop 1" (Item: name) is the bundle's current version; "Shop 2" adds Item.price.
    static func bundle() throws -> URL {
        let folder = ScratchDirectory.url("ocd-shop-\(UUID().uuidString)")
        let bundle = folder.appendingPathComponent("Shop.xcdatamodeld")
        for (version, attributes) in [("Shop 1", ["name"]), ("Shop 2", ["name", "price"])] {
            let model = NSManagedObjectModel()
            model.entities = [NSEntityDescription(name: "Item", properties: attributes.map {
                NSAttributeDescription(name: $0, type: $0 == "price" ? .doubleAttributeType : .stringAttributeType)
            })]
            try model.write(to: bundle.appendingPathComponent("\(version).xcdatamodel"))
        }
        let current = ["_XCCurrentVersionName": "Shop 1.xcdatamodel"]
        let plist = try PropertyListSerialization.data(fromPropertyList: current, format: .xml, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    @Test func theVersionThatWroteTheStoreIsChosenOverAnOlderOneThatAlsoOpens() throws {
        let bundleURL = try Self.bundle()
        let bundle = try ModelVersionBundle(url: bundleURL)
        #expect(bundle.currentVersionName == "Shop 1")
        let url = TestStack.temporaryStoreURL()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try bundle.model(named: "Shop 2"))
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        try coordinator.remove(coordinator.persistentStores[0])
        // Without its hashes, as a store from an Apple device is to OpenCoreData: only the schema tells.
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        metadata[NSStoreModelVersionHashesKey] = nil
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        // Shop 1 would open it too (every column it needs is there) and miss the prices.
        let file = try StoreFile(store: url, model: bundleURL)
        #expect(file.versionName == "Shop 2")
        #expect(file.model.entitiesByName["Item"]?.attributesByName["price"] != nil)
    }
}
