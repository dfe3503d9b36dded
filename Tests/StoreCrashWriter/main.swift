// Saves large batches into an SQLite store until it is killed; the crash
// test (SQLiteCrashTests) kills it at random points and checks the store.
//
// Usage: StoreCrashWriter <store path> <objects per save> <model file>
// Each save k inserts `count` Nodes with batch = k (each owning one Item),
// sets touched = k on every Node of batch k - 1 and deletes the Nodes of
// batch k - 3 (Cascade takes their Items). It prints "saving k" before
// each save and "saved k" after it returns. It starts after the highest batch already in the store.
import Foundation
import OpenCoreData

let arguments = CommandLine.arguments
// StoreCrashWriter migrate <store path> <.xcdatamodeld> <version>: opens the store with that version and
// both migration options (a lightweight migration in place), prints "migrated" and exits; the migration
// crash test (MigrationCrashTests) kills it in the middle.
if arguments.count == 5, arguments[1] == "migrate" {
    let model = try ModelVersionBundle(url: URL(fileURLWithPath: arguments[3])).model(named: arguments[4])
    let migrating = NSPersistentStoreCoordinator(managedObjectModel: model)
    FileHandle.standardOutput.write("migrating\n".data(using: .utf8)!)
    try migrating.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[2]), options: [
        NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
    FileHandle.standardOutput.write("migrated\n".data(using: .utf8)!)
    exit(0)
}
guard arguments.count == 4, let count = Int(arguments[2]) else {
    FileHandle.standardError.write("usage: StoreCrashWriter <store path> <objects per save> <model file>\n".data(using: .utf8)!)
    exit(2)
}
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: arguments[3])))
try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]))
let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator

func nodes(batch: Int64) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Node")
    request.predicate = NSPredicate(format: "batch == %@", NSNumber(value: batch))
    return try context.fetch(request)
}

let latest = NSFetchRequest<NSManagedObject>(entityName: "Node")
latest.sortDescriptors = [NSSortDescriptor(key: "batch", ascending: false)]
latest.fetchLimit = 1
var batch = (try context.fetch(latest).first?.value(forKey: "batch") as? Int64) ?? 0
while true {
    batch += 1
    for index in 0..<count {
        let node = NSEntityDescription.insertNewObject(forEntityName: "Node", into: context)
        node.setValue(batch, forKey: "batch")
        node.setValue(Int64(index), forKey: "index")
        let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
        item.setValue(batch, forKey: "batch")
        item.setValue(node, forKey: "owner")
    }
    for node in try nodes(batch: batch - 1) { node.setValue(batch, forKey: "touched") }
    for node in try nodes(batch: batch - 3) { context.delete(node) }
    FileHandle.standardOutput.write("saving \(batch)\n".data(using: .utf8)!)
    try context.save()
    context.reset()
    FileHandle.standardOutput.write("saved \(batch)\n".data(using: .utf8)!) // unbuffered: the parent reads it at once
}
