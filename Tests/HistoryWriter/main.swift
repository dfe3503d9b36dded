// A second process for the remote-change tests (RemoteChangeTests): opens the
// store with persistent history, inserts Nodes in one save, and exits.
//
// Usage: HistoryWriter <store path> <model file> <count> <author>
// Prints "saved <transaction number>" after the save.
import Foundation
import OpenCoreData

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: HistoryWriter <store path> <model file> <count> <author>\n".utf8))
    exit(2)
}
let model = try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: arguments[2]))
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]),
                                   options: [NSPersistentHistoryTrackingKey: true as NSNumber])
let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator
try context.performAndWait {
    context.transactionAuthor = arguments[4]
    for index in 0..<count {
        let node = NSEntityDescription.insertNewObject(forEntityName: "Node", into: context)
        node.setValue(Int64(1), forKey: "batch")
        node.setValue(Int64(index), forKey: "index")
    }
    try context.save()
}
let token = coordinator.currentPersistentHistoryToken(fromStores: nil)
print("saved \(token.map { "\($0)" } ?? "nil")")
