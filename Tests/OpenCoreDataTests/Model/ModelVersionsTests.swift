import Foundation
import Testing
@testable import OpenCoreDataCore
import TestScratch

/// A versioned model's versions and Apple's version API, measured against
/// the metadata of stores OpenCoreData writes (the seed GroceryDude bundle:
/// "Model 4" has Item, "Model 5" adds Unit).
@Suite struct ModelVersionsTests {
    static let bundleURL = SeedModels.examples.appendingPathComponent("GroceryDude.xcdatamodeld")

    /// The metadata of a new SQLite store written with `model`.
    static func metadata(writtenWith model: NSManagedObjectModel) throws -> [String: Any] {
        let url = TestStack.temporaryStoreURL()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    }

    @Test func everyVersionOfABundleLoads() throws {
        let versions = try ModelVersionBundle(url: Self.bundleURL).allVersions()
        #expect(versions.map(\.name) == ["Model 4", "Model 5"])
        #expect(versions.map { $0.model.entities.compactMap(\.name).sorted() } == [["Item"], ["Item", "Unit"]])
    }

    /// `versionChecksum` is what a store records under NSStoreModelVersionChecksumKey
    /// (https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/versionchecksum ;
    /// NSLightweightMigrationStage takes these checksums).
    @Test func versionChecksumIsTheStoresChecksum() throws {
        let versions = try ModelVersionBundle(url: Self.bundleURL).allVersions()
        let (old, new) = (versions[0].model, versions[1].model)
        #expect(old.versionChecksum == ModelVersionChecksums.checksum(of: old.entityVersionHashesByName))
        #expect(old.versionChecksum != new.versionChecksum)
        let metadata = try Self.metadata(writtenWith: new)
        #expect(metadata["NSStoreModelVersionChecksumKey"] as? String == new.versionChecksum)
        #expect(new.versionIdentifiers == ["5"])
    }

    /// isConfiguration(withName:compatibleWithStoreMetadata:) compares the
    /// configuration's entity hashes with the store's
    /// (Apple's documentation, https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/
    /// isconfiguration(withname:compatiblewithstoremetadata:)).
    @Test func aConfigurationIsCompatibleOnlyWithItsOwnHashes() throws {
        let versions = try ModelVersionBundle(url: Self.bundleURL).allVersions()
        let (old, new) = (versions[0].model, versions[1].model)
        let oldStore = try Self.metadata(writtenWith: old)
        #expect(old.isConfiguration(withName: nil, compatibleWithStoreMetadata: oldStore))
        #expect(!new.isConfiguration(withName: nil, compatibleWithStoreMetadata: oldStore))
        #expect(!old.isConfiguration(withName: "NoSuchConfiguration", compatibleWithStoreMetadata: oldStore))
        #expect(!old.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreTypeKey: NSSQLiteStoreType]))
        // An entity whose hash changed (another attribute) is incompatible too.
        let edited = old.copy() as! NSManagedObjectModel
        let extra = NSAttributeDescription(name: "extra", type: .stringAttributeType)
        edited.entitiesByName["Item"]!.properties.append(extra)
        #expect(!edited.isConfiguration(withName: nil, compatibleWithStoreMetadata: oldStore))
        #expect(edited.differingEntities(forConfigurationName: nil, storeHashes:
                    oldStore[NSStoreModelVersionHashesKey] as! [String: Any]) == ["Item"])
    }

    /// init?(byMerging:forStoreMetadata:) and mergedModel(from:forStoreMetadata:)
    /// give the model a store was written with, or nil
    /// (https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/mergedmodel(from:forstoremetadata:)).
    @Test func theModelOfAStoreIsFoundAmongVersionsByItsMetadata() throws {
        let versions = try ModelVersionBundle(url: Self.bundleURL).allVersions().map(\.model)
        let oldStore = try Self.metadata(writtenWith: versions[0])
        let newStore = try Self.metadata(writtenWith: versions[1])
        let foundOld = try #require(NSManagedObjectModel(byMerging: versions, forStoreMetadata: oldStore))
        #expect(foundOld.entities.compactMap(\.name) == ["Item"])
        #expect(NSManagedObjectModel(byMerging: [versions[0]], forStoreMetadata: newStore) == nil)
        #expect(NSManagedObjectModel(byMerging: versions, forStoreMetadata: [:]) == nil)

        // A bundle whose resources hold the .xcdatamodeld: every version is a candidate.
        let folder = ScratchDirectory.url("ocd-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.bundleURL,
                                         to: folder.appendingPathComponent("GroceryDude.xcdatamodeld"))
        let bundle = try #require(Bundle(path: folder.path))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: newStore))
        #expect(merged.entities.compactMap(\.name).sorted() == ["Item", "Unit"])
        let older = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: oldStore))
        #expect(older.isConfiguration(withName: nil, compatibleWithStoreMetadata: oldStore))
        #expect(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: [:]) == nil)
    }
}
