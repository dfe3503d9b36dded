import Foundation
import Testing
@testable import OpenCoreDataCore

/// Random inserts, updates, deletes and saves at random levels of a root
/// context and two nested levels below it, checked after every step against
/// a model of what each level should see: the store, overlaid by the unsaved
/// changes of that level and every level above it (a save moves a level's
/// changes one level up). Objects are albums named uniquely, with a number.
@Suite struct NestedContextRandomTests {
    /// The model: `changes[level]` maps a name to its new number, or to nil
    /// for a deletion.
    struct Model {
        var store: [String: Int32] = [:]
        var changes: [[String: Int32?]] = [[:], [:], [:]]

        func view(_ level: Int) -> [String: Int32] {
            var view = store
            for changes in self.changes[0...level] {
                for (name, value) in changes { view[name] = value }
            }
            return view
        }

        /// Names a level may delete: none of the levels below it has changed
        /// them (a parent deleting what a child changed is a conflict Core
        /// Data leaves to the application).
        func deletable(_ level: Int) -> [String] {
            let changedBelow = Set(changes[(level + 1)...].flatMap(\.keys))
            return view(level).keys.filter { !changedBelow.contains($0) }.sorted()
        }

        mutating func save(_ level: Int) {
            for (name, value) in changes[level] {
                guard level > 0 else {
                    store[name] = value
                    continue
                }
                if value == nil, (level == 1 ? store : view(level - 2))[name] == nil {
                    // The parent inserted it: deleting it there forgets it.
                    changes[level - 1].removeValue(forKey: name)
                } else {
                    changes[level - 1][name] = .some(value)
                }
            }
            changes[level] = [:]
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases, [1, 2, 3] as [UInt64])
    func randomChangesAtRandomLevels(kind: TestStack.StoreKind, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let root = try TestStack.context(TestStack.albumsModel(), kind)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        let grandchild = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        grandchild.parent = child
        let levels = [root, child, grandchild]
        var model = Model()
        var counter = 0
        for step in 0..<150 {
            let level = Int.random(in: 0..<3, using: &random)
            let context = levels[level]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                counter += 1
                let (name, sheets) = ("n\(counter)", Int32.random(in: 0..<1000, using: &random))
                context.performAndWait { _ = TestStack.insert("Album", into: context, ["name": name, "sheets": sheets]) }
                model.changes[level][name] = .some(sheets)
            case 3..<6:
                guard let name = model.view(level).keys.sorted().randomElement(using: &random) else { continue }
                let sheets = Int32.random(in: 0..<1000, using: &random)
                try context.performAndWait { try Self.album(name, in: context).setValue(sheets, forKey: "sheets") }
                model.changes[level][name] = .some(sheets)
            case 6..<8:
                guard let name = model.deletable(level).randomElement(using: &random) else { continue }
                try context.performAndWait { () throws in
                    context.delete(try Self.album(name, in: context))
                }
                let insertedHere = (level == 0 ? model.store : model.view(level - 1))[name] == nil
                if insertedHere { model.changes[level].removeValue(forKey: name) } else {
                    model.changes[level][name] = .some(nil)
                }
            default:
                try context.performAndWait { try context.save() }
                model.save(level)
            }
            for (level, context) in levels.enumerated() {
                let seen = try Self.contents(of: context)
                #expect(seen == model.view(level), "step \(step), level \(level)")
                if seen != model.view(level) { return }
            }
        }
        for context in levels.reversed() { try context.performAndWait { try context.save() } }
        for level in (0..<3).reversed() { model.save(level) }
        let reader = try TestStack.reader(of: root)
        #expect(try Self.contents(of: reader) == model.store)
    }

    static func album(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    /// What `context` sees once its unchanged objects are refreshed.
    static func contents(of context: NSManagedObjectContext) throws -> [String: Int32] {
        try context.performAndWait { () throws in
            context.refreshAllObjects()
            let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == albums.count)
            return Dictionary(uniqueKeysWithValues: albums.map {
                ($0.value(forKey: "name") as! String, $0.value(forKey: "sheets") as? Int32 ?? 0)
            })
        }
    }
}
