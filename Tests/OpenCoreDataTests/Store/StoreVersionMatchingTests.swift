import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// Finding which version of a model wrote a store by the store's schema
/// (``SQLiteStoreVersionMatching``): Apple-written corpus stores among all
/// versions of their model file, and stores OpenCoreData wrote, by hash.
@Suite struct StoreVersionMatchingTests {
    /// The corpus model files of the same `.xcdatamodeld` as `model`
    /// (`<owner>__<repo>__<Model>__<Version>.xml` shares all but the version).
    static func siblingVersions(of model: String) throws -> [(name: String, model: NSManagedObjectModel)] {
        let prefix = String(model[..<model.range(of: "__", options: .backwards)!.upperBound])
        return try Corpus.files(in: Corpus.models, suffix: ".xml")
            .filter { $0.lastPathComponent.hasPrefix(prefix) }
            .map { (String($0.lastPathComponent.dropLast(4)), try NSManagedObjectModel.load(contentsOf: $0)) }
    }

    /// Every store CorpusOwnModelTable says a model wrote, matched among all
    /// versions of that model in the corpus (270 comparisons): the version
    /// found is the one the table names. BookmarksModel and BookmarksModel_2
    /// differ only by two fetch indexes, so indexes break ties.
    @Test(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
    func corpusStoresAreMatchedToTheVersionThatWroteThem() throws {
        var matched = 0, versionsCompared = 0, failures: [String] = []
        for (store, file, model) in CorpusOwnModelTable.storesWithTheirModels {
            let versions = try Self.siblingVersions(of: model)
            versionsCompared += versions.count
            let copy = try SQLiteMetadataTests.copy(file)
            let fits = try SQLiteStoreVersionMatching.fits(ofStoreAt: copy, among: versions)
            let found = try SQLiteStoreVersionMatching.version(ofStoreAt: copy, among: versions)
            if found == model {
                matched += 1
            } else {
                let summary = fits.prefix(3).map {
                    "\($0.name) missing \($0.missing.prefix(2)) unused \($0.unused.count)"
                }
                failures.append("\(store): found \(found ?? "none") among \(versions.count), "
                                + "expected \(model); \(summary)")
            }
        }
        print("StoreVersionMatchingTests: \(matched) corpus stores matched to their version, "
              + "\(versionsCompared) versions compared")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(matched >= 35)
    }

    /// A store OpenCoreData wrote matches its version by hash; a store no
    /// version at hand wrote gives nil, with what each version misses.
    @Test func ownStoresMatchByHashAndStrangersByNothing() throws {
        let versions = try ModelVersionBundle(url: ModelVersionsTests.bundleURL).allVersions()
        let url = TestStack.temporaryStoreURL()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: versions[0].model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let fits = try SQLiteStoreVersionMatching.fits(ofStoreAt: url, among: versions)
        #expect(fits.map(\.name) == ["Model 4", "Model 5"])
        #expect(fits[0].hashesAgree && fits[0].fits)
        #expect(!fits[1].fits && fits[1].missing.contains("table ZUNIT"))

        // The same file without its hashes: still Model 4, by schema.
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        metadata[NSStoreModelVersionHashesKey] = nil
        try coordinator.remove(coordinator.persistentStores[0])
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        #expect(try SQLiteStoreVersionMatching.version(ofStoreAt: url, among: versions) == "Model 4")

        let stranger = NSManagedObjectModel()
        stranger.entities = [NSEntityDescription(name: "Other", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType)])]
        #expect(try SQLiteStoreVersionMatching.version(ofStoreAt: url, among: [("Other", stranger)]) == nil)
    }

    /// Thing (name; parts ⟷ Part.thing, cascade) with sub-entity Gadget, as
    /// ModelArchiveReaderTests archives it; `nameOptional` is all that differs.
    static func thingModel(nameOptional: Bool) -> NSManagedObjectModel {
        let thing = NSEntityDescription(name: "Thing"), gadget = NSEntityDescription(name: "Gadget")
        let part = NSEntityDescription(name: "Part")
        let parts = TestStack.relationship("parts", to: part, toMany: true, rule: .cascadeDeleteRule)
        let owner = TestStack.relationship("thing", to: thing)
        TestStack.pair(parts, owner)
        thing.properties = [TestStack.attribute("name", .stringAttributeType, optional: nameOptional), parts]
        part.properties = [owner]
        thing.subentities = [gadget]
        let model = NSManagedObjectModel()
        model.entities = [gadget, part, thing]
        return model
    }

    /// Two versions with the same tables (they differ in optionality only):
    /// the model the store caches in Z_MODELCACHE decides.
    @Test func theCachedModelTellsApartVersionsTheSchemaCannot() throws {
        let versions = [("Required", Self.thingModel(nameOptional: false)),
                        ("Optional", Self.thingModel(nameOptional: true))]
        let url = TestStack.temporaryStoreURL()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: versions[0].1)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        try coordinator.remove(coordinator.persistentStores[0])
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        metadata[NSStoreModelVersionHashesKey] = nil
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        #expect(try SQLiteStoreVersionMatching.version(ofStoreAt: url, among: versions) == "Required")

        // The archive of the Optional version, in one stored DEFLATE block, as the cache.
        let archive = try ModelArchiveReaderTests.archive()
        let length = UInt16(archive.count)
        let header = [0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        let deflated = Data(header) + archive
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [deflated])
        }
        let fits = try SQLiteStoreVersionMatching.fits(ofStoreAt: url, among: versions)
        #expect(fits.map(\.name) == ["Optional", "Required"])
        #expect(fits[0].cachedModelDifferences == [] && fits[1].cachedModelDifferences?.count == 1)
    }

    /// Not a store: the errors of metadataForPersistentStore, never a crash.
    @Test func aFileThatIsNoStoreThrows() throws {
        let versions = try ModelVersionBundle(url: ModelVersionsTests.bundleURL).allVersions()
        let missing = TestStack.temporaryStoreURL("Missing.sqlite")
        #expect(throws: NSError.self) { try SQLiteStoreVersionMatching.fits(ofStoreAt: missing, among: versions) }
        let plain = TestStack.temporaryStoreURL("Plain.sqlite")
        try DatabaseQueue(path: plain.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let error = #expect(throws: NSError.self) {
            try SQLiteStoreVersionMatching.fits(ofStoreAt: plain, among: versions)
        }
        #expect(error?.code == NSPersistentStoreInvalidTypeError)
    }
}
