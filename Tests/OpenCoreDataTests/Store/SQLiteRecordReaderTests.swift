import Foundation
import Testing
import GRDB
@testable import OpenCoreDataCore

/// Records read by key and by fetch: each record names its to-one
/// destination by the store's family and key, without an ID made for it,
/// and a fault fired alone (one record read by key, with the table's cached
/// query and column layout) gets the same values a fetch reads.
@Suite struct SQLiteRecordReaderTests {
    /// 3 albums of 10 photos, each photo's `index` its place in its album,
    /// saved and reset: sorted by index, the photos' albums interleave.
    private static func interleavedAlbums() throws -> NSManagedObjectContext {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try context.performAndWait {
            for a in 0..<3 {
                let album = TestStack.insert("Album", into: context, ["name": "a\(a)"])
                for p in 0..<10 {
                    TestStack.insert("Photo", into: context, ["name": "p\(a)-\(p)", "index": Int16(p), "album": album])
                }
            }
            try context.save()
            context.reset()
        }
        return context
    }

    /// The album the committed record of `object` names.
    private static func albumRecord(in object: NSManagedObject) throws -> RecordIdentity {
        let record = try #require(object.committed)
        guard case .record(let album) = record[record.layout.slotsByName["album"]!] else {
            Issue.record("the record of \(object.objectID) holds no album")
            throw CancellationError()
        }
        return album
    }

    private static func albumID(in object: NSManagedObject) throws -> NSManagedObjectID {
        try albumRecord(in: object).objectID
    }

    /// Each photo's record names its album by the store's ID family for
    /// albums and the album's key: no ID is made for a destination read, and
    /// the ID made from the record when asked for is the album's.
    @Test func aFetchsRecordsNameDestinationsWithoutIDs() throws {
        let context = try Self.interleavedAlbums()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.sortDescriptors = [NSSortDescriptor(key: "index", ascending: true)]
            request.returnsObjectsAsFaults = false
            let photos = try context.fetch(request)
            #expect(photos.count == 30)
            let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
            let albumEntity = try #require(context.persistentStoreCoordinator?.managedObjectModel
                .entitiesByName["Album"])
            var keyByAlbum: [String: Int64] = [:]
            for photo in photos {
                let record = try Self.albumRecord(in: photo)
                #expect(record.madeID == nil, "a record read made an ID for its destination")
                #expect(record.family === store.idFamily(for: albumEntity))
                let key = try #require(record.primaryKey)
                // Photo "p1-4" is in album "a1".
                let album = "a" + (photo.value(forKey: "name") as? String ?? "").dropFirst().prefix(1)
                if let known = keyByAlbum[album] { #expect(known == key, "photos of \(album) name two albums") }
                keyByAlbum[album] = key
                let destination = try #require(photo.value(forKey: "album") as? NSManagedObject)
                #expect(destination.value(forKey: "name") as? String == album)
                #expect(record.objectID == destination.objectID && destination.isRecord(record))
            }
            #expect(keyByAlbum.count == 3 && Set(keyByAlbum.values).count == 3)
        }
    }

    /// A to-many read with versions gives each owner its destinations with
    /// their versions in the same order, whatever order the owners were
    /// asked in; each version is the row's `Z_OPT`, and an owner without
    /// destinations is left out.
    @Test func aToManyReadsVersionsGoWithTheirDestinations() throws {
        let context = try Self.interleavedAlbums()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait { () throws in
            // Versions 1 to 3: photos saved again once or twice.
            for round in 1...2 {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
                request.predicate = NSPredicate(format: "index >= %d", round * 3)
                for photo in try context.fetch(request) { photo.setValue("\(round)", forKey: "name") }
                try context.save()
            }
            let empty = TestStack.insert("Album", into: context, ["name": "empty"])
            try context.save()
            let albumRequest = NSFetchRequest<NSManagedObject>(entityName: "Album")
            albumRequest.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            let albums = try context.fetch(albumRequest)
            let photos = try #require(albums[1].entity.relationshipsByName["photos"])
            let read = try #require(try store.destinationsWithVersions(of: albums.map(\.objectID), via: photos))
            #expect(read.destinations[empty.objectID] == nil && read.versions[empty.objectID] == nil)
            for album in albums where album !== empty {
                let destinations = try #require(read.destinations[album.objectID])
                let versions = try #require(read.versions[album.objectID])
                #expect(destinations.count == 10 && versions.count == 10)
                let stored = try destinations.map { id in
                    try #require(try store.snapshots(for: [id])[ObjectKey(id)]).version
                }
                #expect(versions == stored)
                #expect(Set(versions) == [1, 2, 3])
            }
        }
    }

    @Test func aFaultFiredAloneReadsWhatAFetchReads() throws {
        let context = try Self.interleavedAlbums()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.includesPropertyValues = false
            request.sortDescriptors = [NSSortDescriptor(key: "index", ascending: true)]
            let faults = try context.fetch(request)
            let reads = store.recordQueryCount
            for photo in faults.prefix(4) {
                #expect(photo.isFault)
                let name = try #require(photo.value(forKey: "name") as? String)
                let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
                #expect(album.objectID == (try Self.albumID(in: photo)))
                #expect(album.value(forKey: "name") as? String == "a" + String(name.dropFirst().prefix(1)))
                #expect((photo.value(forKey: "index") as? Int16).map { "p\(name.dropFirst().prefix(1))-\($0)" } == name)
            }
            // Each photo's record, and each of the three albums', read alone.
            #expect(store.recordQueryCount == reads + 4 + 3)
        }
    }

    /// A date of whole seconds is kept as an INTEGER: Core Data's TIMESTAMP
    /// column has NUMERIC affinity, which stores an integral REAL as an
    /// integer. A fetch and a fault fired alone read either storage class as
    /// the date it holds.
    @Test func datesOfEitherStorageClassReadAsDates() throws {
        let sample = NSEntityDescription(name: "Sample")
        sample.properties = [TestStack.attribute("name", .stringAttributeType),
                             TestStack.attribute("when", .dateAttributeType),
                             TestStack.attribute("ratio", .doubleAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [sample]
        let context = try TestStack.context(model, .sqlite)
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        let values: [(name: String, when: Double, ratio: Double)] =
            [("whole", 700_000_000, 3), ("fraction", 700_000_000.25, 0.5), ("negative", -86_400, -7)]
        try context.performAndWait {
            for value in values {
                TestStack.insert("Sample", into: context, ["name": value.name, "ratio": value.ratio,
                                                           "when": Date(timeIntervalSinceReferenceDate: value.when)])
            }
            try context.save()
            context.reset()
        }
        let kinds = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT typeof(ZWHEN) || ' ' || typeof(ZRATIO) FROM ZSAMPLE ORDER BY Z_PK")
        }
        #expect(kinds == ["integer real", "real real", "integer real"], "the columns' storage classes: \(kinds)")
        for includesValues in [true, false] {
            try context.performAndWait {
                context.reset()
                let request = NSFetchRequest<NSManagedObject>(entityName: "Sample")
                request.includesPropertyValues = includesValues
                request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
                let objects = try context.fetch(request)
                let expected = values.sorted { $0.name < $1.name }
                #expect(objects.count == expected.count)
                for (object, value) in zip(objects, expected) {
                    #expect(object.value(forKey: "name") as? String == value.name)
                    #expect(object.value(forKey: "when") as? Date == Date(timeIntervalSinceReferenceDate: value.when))
                    #expect(object.value(forKey: "ratio") as? Double == value.ratio)
                }
            }
        }
    }

    /// Keys that are one run of consecutive keys are read by range, others
    /// by list, and either way a record comes back only for an ID whose
    /// entity is the row's (Place and Venue share one table and one key
    /// sequence, so a run of Place keys spans Venue rows).
    /// Twelve records of Place and its sub-entity Venue (one table, one key
    /// sequence), saved; each record's entity and name by key, as a fetch reads them.
    private static func placesAndVenues() throws -> (store: SQLiteStore, place: NSEntityDescription,
                                                      records: [Int64: (entity: NSEntityDescription, name: String)]) {
        let place = NSEntityDescription(name: "Place"), venue = NSEntityDescription(name: "Venue")
        place.subentities = [venue]
        place.properties = [TestStack.attribute("name", .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [place, venue]
        let context = try TestStack.context(model, .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        var records: [Int64: (entity: NSEntityDescription, name: String)] = [:]
        try context.performAndWait {
            for index in 0..<12 {
                TestStack.insert(index % 3 == 0 ? "Venue" : "Place", into: context, ["name": "r\(index)"])
            }
            try context.save()
            for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Place")) {
                let name = try #require(object.value(forKey: "name") as? String)
                records[try #require(object.objectID.primaryKey)] = (object.entity, name)
            }
        }
        #expect(Set(records.keys) == Set(1...12) && Set(records.values.map { ObjectIdentifier($0.entity) }).count == 2)
        return (store, place, records)
    }

    @Test func runsOfKeysReadByRangeWhatListsRead() throws {
        let (store, place, records) = try Self.placesAndVenues()
        final class Statements: @unchecked Sendable { var sql: [String] = [] }
        let statements = Statements()
        store.database.inDatabase { db in db.trace { statements.sql.append("\($0)") } }
        defer { store.database.inDatabase { db in db.trace(nil) } }
        let cases: [(keys: [Int64], asPlaces: Bool, range: Bool)] = [
            ([3, 4, 5, 6, 7, 8], false, true), ([8, 3, 6, 5, 4, 7], true, true), ([2, 1], false, true),
            ([3, 4, 6, 7], false, false), ([1, 3, 5, 12], true, false), ([11], false, false),
        ]
        for (keys, asPlaces, range) in cases {
            statements.sql = []
            let ids = try keys.map { key in
                store.objectID(for: asPlaces ? place : try #require(records[key]).entity, primaryKey: key)
            }
            let read = try store.snapshots(for: ids)
            let expected = Set(keys.filter { !asPlaces || records[$0]?.entity === place })
            #expect(Set(read.keys.compactMap { $0.id.primaryKey }) == expected, "\(keys)")
            for id in ids {
                guard let snapshot = read[ObjectKey(id)], let key = id.primaryKey else { continue }
                #expect(snapshot["name"] as? String == records[key]?.name && snapshot.objectID.entity === id.entity)
            }
            let reads = statements.sql.filter { $0.hasPrefix("SELECT * FROM") }
            #expect(reads.count == 1, "\(keys): \(statements.sql)")
            #expect(reads.allSatisfy { $0.contains("BETWEEN") == range }, "\(keys): \(reads)")
        }
    }

    /// Records read by key for one family (`snapshots(of:primaryKeys:)`,
    /// faults a fetch made) are those a read by ID returns, named by family
    /// and key instead of by ID: for keys by range and by list, as Place and
    /// as Venue (rows of the other entity in the table are left out), with
    /// keys the table lacks, and more keys than one list holds.
    @Test func aReadByKeysIsTheReadByIDs() throws {
        let (store, place, records) = try Self.placesAndVenues()
        let venue = try #require(place.subentities.first)
        let cases: [[Int64]] = [Array(1...12), [8, 3, 6, 5, 4, 7], [3, 4, 6, 7], [11], [0, 13, 2], [],
                                Array(1...1_100)]
        for keys in cases {
            for entity in [place, venue] {
                let family = store.idFamily(for: entity)
                let byKey = try store.snapshots(of: family, primaryKeys: keys)
                let byID = try store.snapshots(for: keys.map { store.objectID(for: entity, primaryKey: $0) })
                #expect(byKey.count == byID.count, "\(entity.name!) \(keys.prefix(8))")
                for record in byKey {
                    let key = try #require(record.identity.primaryKey)
                    #expect(record.identity.madeID == nil, "named by family and key")
                    #expect(record["name"] as? String == records[key]?.name && records[key]?.entity === entity)
                    #expect(byID[ObjectKey(store.objectID(for: entity, primaryKey: key))]?["name"] as? String
                            == record["name"] as? String)
                }
            }
        }
        // One key alone (a fault fired alone) reads what a list of it reads.
        for key in Int64(0)...13 {
            for entity in [place, venue] {
                let family = store.idFamily(for: entity)
                let alone = try store.snapshots(of: family, primaryKey: key)
                let listed = try store.snapshots(of: family, primaryKeys: [key])
                #expect(alone.count == listed.count && alone.count == (records[key]?.entity === entity ? 1 : 0))
                #expect(alone.first?["name"] as? String == listed.first?["name"] as? String)
                #expect(alone.allSatisfy { $0.identity.madeID == nil && $0.identity.primaryKey == key })
            }
        }
    }

    /// A record read alone (`snapshots(of:primaryKey:)`, a fault fired alone) is what
    /// the general read returns for that one ID: for every record, as its
    /// own entity and as the other one, and for keys the table lacks.
    @Test func aRecordReadAloneIsTheGeneralReadsRecord() throws {
        let (store, place, records) = try Self.placesAndVenues()
        let venue = try #require(place.subentities.first)
        for key in Int64(0)...13 {
            for entity in [place, venue] {
                let id = store.objectID(for: entity, primaryKey: key)
                let alone = try store.snapshots(of: id.family, primaryKey: key).first
                let general = try store.snapshots(for: [id])[ObjectKey(id)]
                #expect((alone == nil) == (general == nil), "\(entity.name!) \(key)")
                #expect((alone != nil) == (records[key]?.entity === entity), "\(entity.name!) \(key)")
                #expect(alone?["name"] as? String == general?["name"] as? String, "\(entity.name!) \(key)")
                #expect(alone.map { $0.objectID.entity === entity && $0.objectID.primaryKey == key } ?? true)
            }
        }
    }
}
