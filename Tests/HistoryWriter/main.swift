// A second process for the remote-change tests (RemoteChangeTests): opens the
// store with persistent history, inserts Nodes in one save (mode "save") or one
// NSBatchInsertRequest (mode "batch"), and exits. Mode "touch" sets every Node's
// `touched` to <count> in one save instead (MergePolicyTests' two-process conflict).
//
// Usage: HistoryWriter <store path> <model file> <count> <author> [save|batch|touch]
// Prints "saved <transaction number>" after the write.
import Foundation
import OpenCoreData

let arguments = CommandLine.arguments
guard arguments.count == 5 || arguments.count == 6, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data(
        "usage: HistoryWriter <store path> <model file> <count> <author> [save|batch|touch]\n".utf8))
    exit(2)
}
let mode = arguments.count == 6 ? arguments[5] : "save"
let model = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: arguments[2]))
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]),
                                   options: [NSPersistentHistoryTrackingKey: true as NSNumber])
let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator
try context.performAndWait {
    context.transactionAuthor = arguments[4]
    if mode == "touch" {
        for node in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Node")) {
            node.setValue(Int64(count), forKey: "touched")
        }
        try context.save()
        return
    }
    if mode == "batch" {
        let objects: [[String: Any]] = (0..<count).map { ["batch": Int64(1), "index": Int64($0)] }
        _ = try context.execute(NSBatchInsertRequest(entityName: "Node", objects: objects))
        return
    }
    for index in 0..<count {
        let node = NSEntityDescription.insertNewObject(forEntityName: "Node", into: context)
        node.setValue(Int64(1), forKey: "batch")
        node.setValue(Int64(index), forKey: "index")
    }
    try context.save()
}
let token = coordinator.currentPersistentHistoryToken(fromStores: nil)
print("saved \(token.map { "\($0)" } ?? "nil")")
