import Foundation
import OpenCoreData
import GRDBSQLite

/// The graph workloads written against OpenCoreData's API: contexts, fetch
/// requests with predicates and sort descriptors, saves to the SQLite store.
enum OCDWorkloads {
    /// Album ⟷ Photo as GraphData lays them out (Album = 1, Photo = 2, same columns).
    static let model: NSManagedObjectModel = {
        let album = NSEntityDescription(name: "Album"), photo = NSEntityDescription(name: "Photo")
        let photos = NSRelationshipDescription(name: "photos", destination: photo, toMany: true, deleteRule: .cascadeDeleteRule)
        let albumOf = NSRelationshipDescription(name: "album", destination: album)
        photos.inverseRelationship = albumOf
        albumOf.inverseRelationship = photos
        album.properties = [NSAttributeDescription(name: "creationDate", type: .dateAttributeType),
                            NSAttributeDescription(name: "name", type: .stringAttributeType), photos]
        photo.properties = [NSAttributeDescription(name: "creationDate", type: .dateAttributeType),
                            NSAttributeDescription(name: "fileSize", type: .integer64AttributeType),
                            NSAttributeDescription(name: "name", type: .stringAttributeType),
                            NSAttributeDescription(name: "rating", type: .integer64AttributeType), albumOf]
        let model = NSManagedObjectModel()
        model.entities = [album, photo]
        return model
    }()

    static func context(_ url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Adds what OpenCoreData needs to open a GraphData file (untimed): the
    /// bookkeeping tables of a store it creates for the same model, with
    /// Z_MAX set to the rows present.
    static func adopt(_ url: URL) throws {
        let fresh = url.deletingLastPathComponent().appendingPathComponent("fresh-\(UUID().uuidString).sqlite")
        _ = try context(fresh) // creates and closes a store with the model's metadata
        let db = try RawConnection(url)
        db.execute("ATTACH DATABASE '\(fresh.path)' AS fresh")
        var statements: [String] = []
        db.query("SELECT sql FROM fresh.sqlite_master WHERE name IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')") { s in
            statements.append(s.text(0))
        }
        statements.forEach(db.execute)
        db.execute("INSERT INTO Z_PRIMARYKEY SELECT * FROM fresh.Z_PRIMARYKEY")
        db.execute("INSERT INTO Z_METADATA SELECT * FROM fresh.Z_METADATA")
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT COUNT(*) FROM ZALBUM) WHERE Z_NAME = 'Album'")
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT COUNT(*) FROM ZPHOTO) WHERE Z_NAME = 'Photo'")
        db.execute("DETACH DATABASE fresh")
    }

    static func insertGraph(_ photos: Int, _ url: URL) throws {
        let context = try context(url)
        let albums = (0..<GraphData.albumCount(photos)).map { i in
            let album = NSEntityDescription.insertNewObject(forEntityName: "Album", into: context)
            album.setValue(GraphData.name(i), forKey: "name")
            album.setValue(Date(timeIntervalSinceReferenceDate: 700_000_000), forKey: "creationDate")
            return album
        }
        for i in 0..<photos {
            let p = GraphData.photo(i, photos: photos)
            let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
            photo.setValue(p.name, forKey: "name")
            photo.setValue(p.rating, forKey: "rating")
            photo.setValue(p.fileSize, forKey: "fileSize")
            photo.setValue(Date(timeIntervalSinceReferenceDate: p.created), forKey: "creationDate")
            photo.setValue(albums[p.album - 1], forKey: "album")
        }
        try context.save()
    }

    static func fetchGraph(_ photos: Int, _ url: URL) throws {
        let context = try context(url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.returnsObjectsAsFaults = false
        var bytes = 0
        let rows = try context.fetch(request)
        for photo in rows {
            bytes &+= (photo.value(forKey: "name") as! String).utf8.count &+ Int(photo.value(forKey: "rating") as! Int64)
            bytes &+= ((photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String)?.utf8.count ?? 0
        }
        try check(rows.count == photos && bytes > 0, "fetchGraph read \(rows.count)")
    }

    static func predicateFetch(_ photos: Int, _ url: URL) throws {
        let context = try context(url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.predicate = NSPredicate(format: "album.name BEGINSWITH[c] 'a' AND rating > 3")
        request.sortDescriptors = [NSSortDescriptor(key: "album.name", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        request.returnsObjectsAsFaults = false
        let rows = try context.fetch(request)
        try check(rows.count == Expected.predicateMatches(photos), "predicateFetch found \(rows.count)")
    }

    static func cascadeDelete(_ photos: Int, _ url: URL) throws {
        let context = try context(url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        request.predicate = NSPredicate(format: "SELF IN %@", (1...max(1, GraphData.albumCount(photos) / 10)).map {
            context.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(context.persistentStoreCoordinator!.persistentStores[0].identifier!)/Album/p\($0)")!)!
        })
        for album in try context.fetch(request) { context.delete(album) }
        try context.save()
    }

    static func updateAll(_ photos: Int, _ url: URL) throws {
        let context = try context(url)
        for photo in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")) {
            photo.setValue(Int64(photo.objectID.uriRepresentation().lastPathComponent.dropFirst())! % 5, forKey: "rating")
        }
        try context.save()
    }
}
