import Foundation
import OpenCoreData

/// The models the OpenCoreData side uses, built in code as a Core Data user
/// would. Their SQLite layout is GraphData's (ZALBUM = 1, ZPHOTO = 2) and the
/// ten-integer table ZITEM, so every system reads and writes the same rows.
enum OCDModels {
    static let graph = graphModel(albumClass: nil, photoClass: nil)

    /// `graph` with the entities' objects of their own classes, as most applications' models have them.
    /// The class names are written out, as a model file holds them: `String(reflecting:)` costs ~2M
    /// instructions the first time (conformance lookups), which the first workload to use this model
    /// paid in its timed region.
    static let graphWithClasses = graphModel(albumClass: "ocd_bench.BenchAlbum", photoClass: "ocd_bench.BenchPhoto")

    private static func graphModel(albumClass: String?, photoClass: String?) -> NSManagedObjectModel {
        let album = NSEntityDescription(name: "Album", className: albumClass)
        let photo = NSEntityDescription(name: "Photo", className: photoClass)
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
    }

    static let items: NSManagedObjectModel = {
        let item = NSEntityDescription(name: "Item")
        item.properties = (0..<10).map { NSAttributeDescription(name: "i\($0)", type: .integer64AttributeType) }
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }()

    /// A coordinator with the SQLite store at `url` and a private-queue context on it.
    static func context(_ model: NSManagedObjectModel, _ url: URL,
                        options: [AnyHashable: Any]? = nil) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
}

/// The classes of `OCDModels.graphWithClasses`, as Xcode generates them (without accessors: the
/// workloads use key-value coding, as the plain graph's do).
final class BenchAlbum: NSManagedObject {}
final class BenchPhoto: NSManagedObject {}
