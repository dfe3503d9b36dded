import Foundation
import OpenCoreData

/// The graph workloads written against OpenCoreData's API as a Core Data user
/// would: a private-queue context, fetch requests with predicates and sort
/// descriptors, saves to the SQLite store. Each checks its result.
enum OCDWorkloads {
    static func insertGraph(_ photos: Int, _ url: URL) throws {
        try insertGraph(photos, url, options: nil)
    }

    /// insert-graph into a store recording persistent history (NSPersistentHistoryTrackingKey).
    static func insertGraphTracked(_ photos: Int, _ url: URL) throws {
        try insertGraph(photos, url, options: [NSPersistentHistoryTrackingKey: true as NSNumber])
    }

    /// insert-graph with objects of their own classes, each made with `init(context:)`.
    static func insertGraphWithClasses(_ photos: Int, _ url: URL) throws {
        try insertGraph(photos, url, options: nil, model: OCDModels.graphWithClasses,
                        album: { BenchAlbum(context: $0) }, photo: { BenchPhoto(context: $0) })
    }

    private static func insertGraph(
        _ photos: Int, _ url: URL, options: [AnyHashable: Any]?, model: NSManagedObjectModel = OCDModels.graph,
        album newAlbum: (NSManagedObjectContext) -> NSManagedObject = {
            NSEntityDescription.insertNewObject(forEntityName: "Album", into: $0)
        },
        photo newPhoto: (NSManagedObjectContext) -> NSManagedObject = {
            NSEntityDescription.insertNewObject(forEntityName: "Photo", into: $0)
        }
    ) throws {
        let context = try OCDModels.context(model, url, options: options)
        try context.performAndWait {
            let albums = (0..<GraphData.albumCount(photos)).map { i in
                let album = newAlbum(context)
                album.setValue(GraphData.name(i), forKey: "name")
                album.setValue(Date(timeIntervalSinceReferenceDate: 700_000_000), forKey: "creationDate")
                return album
            }
            for i in 0..<photos {
                let p = GraphData.photo(i, photos: photos)
                let photo = newPhoto(context)
                photo.setValue(p.name, forKey: "name")
                photo.setValue(Int64(p.rating), forKey: "rating")
                photo.setValue(Int64(p.fileSize), forKey: "fileSize")
                photo.setValue(Date(timeIntervalSinceReferenceDate: p.created), forKey: "creationDate")
                photo.setValue(albums[p.album - 1], forKey: "album")
            }
            try context.save()
            try check(try count(context, "Photo") == photos, "insertGraph stored a wrong number of photos")
        }
    }

    static func fetchGraph(_ photos: Int, _ url: URL) throws {
        try fetchGraph(photos, url, model: OCDModels.graph, as: NSManagedObject.self)
    }

    /// fetch-graph with objects of their own classes, fetched as `BenchPhoto`.
    static func fetchGraphWithClasses(_ photos: Int, _ url: URL) throws {
        try fetchGraph(photos, url, model: OCDModels.graphWithClasses, as: BenchPhoto.self)
    }

    private static func fetchGraph<Photo: NSManagedObject>(_ photos: Int, _ url: URL, model: NSManagedObjectModel,
                                                           as: Photo.Type) throws {
        let context = try OCDModels.context(model, url)
        try context.performAndWait {
            let request = NSFetchRequest<Photo>(entityName: "Photo")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.returnsObjectsAsFaults = false
            var bytes = 0
            let rows = try context.fetch(request)
            for photo in rows {
                bytes &+= (photo.value(forKey: "name") as! String).utf8.count
                bytes &+= Int(photo.value(forKey: "rating") as! Int64) &+ Int(photo.value(forKey: "fileSize") as! Int64)
                bytes &+= Int((photo.value(forKey: "creationDate") as! Date).timeIntervalSinceReferenceDate)
                bytes &+= ((photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String)?.utf8.count ?? 0
            }
            try check(rows.count == photos && bytes > 0, "fetchGraph read \(rows.count)")
        }
    }

    static func predicateFetch(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "album.name BEGINSWITH[c] 'a' AND rating > 3")
            request.sortDescriptors = [NSSortDescriptor(key: "album.name", ascending: true),
                                       NSSortDescriptor(key: "name", ascending: true)]
            request.returnsObjectsAsFaults = false
            let rows = try context.fetch(request)
            var named = 0
            for photo in rows where !(photo.value(forKey: "name") as! String).isEmpty { named += 1 }
            try check(named == Expected.predicateMatches(photos), "predicateFetch found \(named)")
        }
    }

    /// Deletes the albums the raw and GRDB sides delete (the first tenth, by
    /// name) and lets the Cascade rule delete their photos.
    static func cascadeDelete(_ photos: Int, _ url: URL) throws {
        try cascadeDelete(photos, url, model: OCDModels.graph)
    }

    /// cascade-delete with objects of their own classes.
    static func cascadeDeleteWithClasses(_ photos: Int, _ url: URL) throws {
        try cascadeDelete(photos, url, model: OCDModels.graphWithClasses)
    }

    private static func cascadeDelete(_ photos: Int, _ url: URL, model: NSManagedObjectModel) throws {
        let context = try OCDModels.context(model, url)
        let albums = GraphData.albumCount(photos), doomed = max(1, albums / 10)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.predicate = NSPredicate(format: "name IN %@", (0..<doomed).map(GraphData.name))
            for album in try context.fetch(request) { context.delete(album) }
            try context.save()
            let photosLeft = try count(context, "Photo"), albumsLeft = try count(context, "Album")
            try check(albumsLeft == albums - doomed && photosLeft == photos - photos / 10,
                      "cascadeDelete left \(albumsLeft) albums, \(photosLeft) photos")
        }
    }

    static func updateAll(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            // fileSize - 999 is the photo's Z_PK: the same values the raw and GRDB sides write.
            for photo in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")) {
                photo.setValue((photo.value(forKey: "fileSize") as! Int64 - 999) % 5, forKey: "rating")
            }
            try context.save()
            let zeros = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            zeros.predicate = NSPredicate(format: "rating == 0")
            try check(try context.count(for: zeros) == photos / 5, "updateAll wrote wrong ratings")
        }
    }

    /// One attribute of every photo set to a constant with NSBatchUpdateRequest.
    static func batchUpdate(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.propertiesToUpdate = ["rating": 3]
            request.resultType = .updatedObjectsCountResultType
            let updated = (try context.execute(request) as? NSBatchUpdateResult)?.result as? Int
            let threes = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            threes.predicate = NSPredicate(format: "rating == 3")
            try check(updated == photos && (try context.count(for: threes)) == photos, "batchUpdate set \(updated ?? -1)")
        }
    }

    /// Photos without albums inserted with NSBatchInsertRequest's dictionary
    /// handler (the form Apple recommends for large imports) into a new store.
    static func batchInsert(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            var i = 0
            let request = NSBatchInsertRequest(entityName: "Photo", dictionaryHandler: { dictionary in
                guard i < photos else { return true }
                let p = GraphData.photo(i, photos: photos)
                // setObject(_:forKey:) rather than the subscript, whose Any key is cast to AnyHashable
                // (a protocol conformance lookup per key in swift-corelibs-foundation).
                dictionary.setObject(p.name, forKey: "name")
                dictionary.setObject(p.rating, forKey: "rating")
                dictionary.setObject(p.fileSize, forKey: "fileSize")
                dictionary.setObject(Date(timeIntervalSinceReferenceDate: p.created), forKey: "creationDate")
                i += 1
                return false
            })
            request.resultType = .count
            let inserted = (try context.execute(request) as? NSBatchInsertResult)?.result as? Int
            try check(inserted == photos, "batchInsert inserted \(inserted ?? -1)")
        }
    }

    /// Every photo whose file size is at least 1000 (all of them) deleted with NSBatchDeleteRequest.
    static func batchDelete(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
            fetch.predicate = NSPredicate(format: "fileSize >= 1000")
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeCount
            let deleted = (try context.execute(request) as? NSBatchDeleteResult)?.result as? Int
            try check(deleted == photos && (try count(context, "Photo")) == 0, "batchDelete deleted \(deleted ?? -1)")
        }
    }

    /// Walks every photo through a batch-faulting fetch result (`fetchBatched`,
    /// `fetchBatchSize` 100): Core Data's lazy array, one batch in memory.
    static func batchedWalk(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.fetchBatchSize = 100
            var seen = 0
            for photo in try context.fetchBatched(request) where !(photo.value(forKey: "name") as! String).isEmpty {
                seen += photo.value(forKey: "rating") as! Int64 >= 0 ? 1 : 0
            }
            try check(seen == photos, "batchedWalk saw \(seen)")
            // Bounded by the batch: the walked objects left the context (albums stay as faults).
            let registered = context.registeredObjects.filter { $0.entity.name == "Photo" }.count
            try check(registered <= request.fetchBatchSize, "batchedWalk left \(registered) photos registered")
        }
    }

    /// Every photo as a fault without its row (`includesPropertyValues = false`: Core Data's
    /// faults with no data cached), held until counted: what a fault costs in memory.
    static func fetchFaults(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.includesPropertyValues = false
            let faults = try context.fetch(request)
            try check(faults.count == photos && faults.allSatisfy(\.isFault), "fetchFaults got \(faults.count)")
        }
    }

    /// Every photo fetched as a fault without its row, then each fault fired
    /// by reading its name: one record read per object, Core Data's cost of
    /// walking objects nobody prefetched.
    static func fireFaults(_ photos: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.graph, url)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.includesPropertyValues = false
            var bytes = 0
            let faults = try context.fetch(request)
            for photo in faults {
                bytes &+= (photo.value(forKey: "name") as! String).utf8.count
                bytes &+= Int(photo.value(forKey: "rating") as! Int64)
            }
            try check(faults.count == photos && bytes > 0, "fireFaults read \(faults.count)")
        }
    }

    private static func count(_ context: NSManagedObjectContext, _ entity: String) throws -> Int {
        try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity))
    }
}
