import Foundation
import OpenCoreData

/// Nested contexts (issue 14): the update-all workload saved through a child
/// context, and a save merged into a context that holds many objects.
enum NestedWorkloads {
    /// Every photo's rating set in a child of the root context, saved into
    /// the root, which saves to the store: update-all's changes, one level
    /// further. Issue 14's target: at most 1.3 times update-all in the same run.
    static func updateAllThroughChild(_ photos: Int, _ url: URL) throws {
        let root = try OCDModels.context(OCDModels.graph, url)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        try child.performAndWait {
            // fileSize - 999 is the photo's Z_PK: the same values the raw and GRDB sides write.
            for photo in try child.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")) {
                photo.setValue((photo.value(forKey: "fileSize") as! Int64 - 999) % 5, forKey: "rating")
            }
            try child.save()
        }
        try root.performAndWait {
            try root.save()
            let zeros = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            zeros.predicate = NSPredicate(format: "rating == 0")
            try check(try root.count(for: zeros) == photos / 5, "updateAllThroughChild wrote wrong ratings")
        }
    }

    /// The objects of the save that `mergeSave` merges.
    static let savedObjects = 10_000

    /// A context holding `registered` loaded photos (untimed) merges another
    /// context's save of `savedObjects` changed photos with
    /// `mergeChanges(fromContextDidSave:)` (timed); the seconds of the merge.
    /// Issue 14's target: the cost follows the save, not the registered objects.
    static func mergeSave(_ registered: Int, _ url: URL) throws -> Double {
        let viewer = try OCDModels.context(OCDModels.graph, url)
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = viewer.persistentStoreCoordinator
        let held = try viewer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.returnsObjectsAsFaults = false
            return try viewer.fetch(request)
        }
        nonisolated(unsafe) var saved: Notification?
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer,
                                                              queue: nil) { saved = $0 }
        try writer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.fetchLimit = min(savedObjects, registered)
            for photo in try writer.fetch(request) { photo.setValue(Int64(7), forKey: "rating") }
            try writer.save()
        }
        NotificationCenter.default.removeObserver(observer)
        guard let saved else { throw BenchmarkError("mergeSave: the writer posted no DidSave") }
        let start = DispatchTime.now().uptimeNanoseconds
        ocdBenchTimedRegion { viewer.performAndWait { viewer.mergeChanges(fromContextDidSave: saved) } }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let merged = viewer.performAndWait { held.filter { $0.value(forKey: "rating") as? Int64 == 7 }.count }
        try check(merged == min(savedObjects, registered), "mergeSave merged \(merged) photos")
        return seconds
    }
}
