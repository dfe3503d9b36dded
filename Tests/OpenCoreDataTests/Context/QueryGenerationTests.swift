import Foundation
import Testing
@testable import OpenCoreDataCore

/// Query generations. Facts: a context pinned with `setQueryGenerationFrom(_:)` sees "the same generation, or
/// snapshot, of data until you choose to advance it"; only SQLite stores in WAL mode support them
/// (https://developer.apple.com/documentation/coredata/accessing-data-when-the-store-changes); elsewhere contexts
/// silently stay unpinned, and the pinned context moves on lazily at its next read (coredata-wave2.md §4.4). It
/// moves to the current generation when it saves, resets or merges (WWDC 2016 "What's New in Core Data"; the
/// save case also http://dduraz.com/2016/09/16/query-generations/).
@Suite struct QueryGenerationTests {
    /// A SQLite context whose store holds album "a"; a pinned sibling that has read it; the album as it read it.
    private static func pinnedReader() throws -> (writer: NSManagedObjectContext, pinned: NSManagedObjectContext) {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try writer.performAndWait { () throws in
            TestStack.insert("Album", into: writer, ["name": "a", "sheets": Int32(1)])
            try writer.save()
        }
        let pinned = TestStack.sibling(of: writer)
        try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.names(pinned) == ["a"])
        }
        return (writer, pinned)
    }

    /// The writer renames "a" to "b" and inserts "c", and saves.
    private static func writerChanges(_ writer: NSManagedObjectContext) throws {
        try writer.performAndWait { () throws in
            let album = try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))[0]
            album.setValue("b", forKey: "name")
            TestStack.insert("Album", into: writer, ["name": "c"])
            try writer.save()
        }
    }

    private static func names(_ context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }.sorted()
    }

    @Test func aPinnedContextKeepsSeeingItsGeneration() throws {
        let (writer, pinned) = try Self.pinnedReader()
        try Self.writerChanges(writer)
        try pinned.performAndWait { () throws in
            #expect(try Self.names(pinned) == ["a"])
            #expect(try pinned.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 1)
            // A fault fired now reads the generation too.
            let album = try pinned.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))[0]
            pinned.refresh(album, mergeChanges: false)
            #expect(album.value(forKey: "name") as? String == "a")
            let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Album")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["name"]
            #expect(try pinned.fetch(dictionaries).compactMap { $0["name"] as? String } == ["a"])

            // Moving on does not change loaded objects (as a fetch never does); refreshing them reads the new data.
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.names(pinned) == ["a", "c"])
            pinned.refresh(album, mergeChanges: false)
            #expect(try Self.names(pinned) == ["b", "c"])
        }
    }

    /// A batched fetch's faults, made from the store's keys and read a batch at a time, read the pinned
    /// generation as a fault fired alone does.
    @Test func aBatchedFetchReadsItsGeneration() throws {
        let (writer, pinned) = try Self.pinnedReader()
        try Self.writerChanges(writer)
        try pinned.performAndWait { () throws in
            for album in try pinned.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")) {
                pinned.refresh(album, mergeChanges: false)
            }
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.fetchBatchSize = 1
            let albums = try pinned.fetchBatched(request)
            #expect(albums.map { $0.value(forKey: "name") as? String } == ["a"])
            #expect(albums.allSatisfy { !$0.isFault })
        }
    }

    @Test func rowsReadAtAnOldGenerationNeverReachOtherContexts() throws {
        let (writer, pinned) = try Self.pinnedReader()
        try Self.writerChanges(writer)
        try pinned.performAndWait { () throws in
            let album = try pinned.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))[0]
            pinned.refresh(album, mergeChanges: false)
            #expect(album.value(forKey: "name") as? String == "a")
        }
        let current = TestStack.sibling(of: writer)
        try current.performAndWait { () throws in
            #expect(try Self.names(current) == ["b", "c"])
        }
    }

    @Test func theTokenIsNilUnpinnedAndSharedWithAnotherContext() throws {
        let (writer, pinned) = try Self.pinnedReader()
        #expect(writer.performAndWait { writer.queryGenerationToken } == nil)
        let token = try #require(pinned.performAndWait { pinned.queryGenerationToken })
        #expect(token !== NSQueryGenerationToken.current)
        try Self.writerChanges(writer)
        let follower = TestStack.sibling(of: writer)
        try follower.performAndWait { () throws in
            try follower.setQueryGenerationFrom(token)
            #expect(follower.queryGenerationToken === token)
            #expect(try Self.names(follower) == ["a"])
            try follower.setQueryGenerationFrom(nil)
            #expect(follower.queryGenerationToken == nil)
            #expect(try Self.names(follower) == ["b", "c"])
        }
    }

    @Test func savingResettingAndMergingMoveThePinnedContextOn() throws {
        let (writer, pinned) = try Self.pinnedReader()
        try Self.writerChanges(writer)
        try pinned.performAndWait { () throws in
            TestStack.insert("Album", into: pinned, ["name": "d"])
            try pinned.save()
            #expect(try Self.names(pinned) == ["b", "c", "d"])
            #expect(pinned.queryGenerationToken != nil)
        }
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer,
                                                              queue: nil) { note in
            pinned.performAndWait { pinned.mergeChanges(fromContextDidSave: note) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait { () throws in
            TestStack.insert("Album", into: writer, ["name": "e"])
            try writer.save()
        }
        try pinned.performAndWait { () throws in
            #expect(try Self.names(pinned) == ["b", "c", "d", "e"])
        }
        NotificationCenter.default.removeObserver(observer)
        try writer.performAndWait { () throws in
            TestStack.insert("Album", into: writer, ["name": "f"])
            try writer.save()
        }
        try pinned.performAndWait { () throws in
            #expect(try Self.names(pinned).count == 4)
            pinned.reset()
            #expect(try Self.names(pinned).count == 5)
        }
    }

    @Test func storesWithoutGenerationsLeaveTheContextUnpinned() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .inMemory)
        try context.performAndWait { () throws in
            try context.setQueryGenerationFrom(.current)
            #expect(context.queryGenerationToken == nil)
        }
    }

    @Test func aTokenOfOtherStoresIsRefused() throws {
        let (_, pinned) = try Self.pinnedReader()
        let token = try #require(pinned.performAndWait { pinned.queryGenerationToken })
        let other = try TestStack.context(TestStack.albumsModel(), .sqlite)
        other.performAndWait {
            let error = #expect(throws: NSError.self) { try other.setQueryGenerationFrom(token) }
            #expect(error?.code == NSCoreDataError)
        }
    }
}
