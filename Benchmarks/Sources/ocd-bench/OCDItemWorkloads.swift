import Foundation
import OpenCoreData

/// GRDB's published ten-integer workloads, written against OpenCoreData.
enum OCDItemWorkloads {
    static func insertItems(_ rows: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.items, url)
        try context.performAndWait {
            for i in 0..<rows {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                for column in 0..<10 { item.setValue(Int64(i), forKey: keys[column]) }
            }
            try context.save()
            let stored = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
            try check(stored == rows, "insertItems stored \(stored)")
        }
    }

    static func fetchItems(_ rows: Int, _ url: URL) throws {
        let context = try OCDModels.context(OCDModels.items, url)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.returnsObjectsAsFaults = false
            var sum: Int64 = 0
            for item in try context.fetch(request) {
                for key in keys { sum &+= item.value(forKey: key) as! Int64 }
            }
            try check(sum == Int64(10 * rows * (rows - 1) / 2), "fetchItems read wrong values")
        }
    }

    private static let keys = (0..<10).map { "i\($0)" }
}
