import Foundation
import Testing
@testable import OpenCoreDataCore

/// Random inserts, updates, deletes and saves at random levels of a root
/// context and two nested levels below it, checked after every step against
/// a model of what each level should see: the store, overlaid by the unsaved
/// changes of that level and every level above it (a save moves a level's
/// changes one level up). Albums have a number; photos belong to an album
/// (Album.photos cascades, Photo.album nullifies), so to-one and to-many
/// relationships and cascades cross the levels too.
@Suite struct NestedContextRandomTests {
    enum Value: Equatable {
        case album(sheets: Int32)
        case photo(album: String)
    }

    /// The model: `changes[level]` maps a name to its new value, or to nil
    /// for a deletion.
    struct Model {
        var store: [String: Value] = [:]
        var changes: [[String: Value?]] = [[:], [:], [:]]

        func view(_ level: Int) -> [String: Value] {
            var view = store
            for changes in self.changes[0...level] {
                for (name, value) in changes { view[name] = value }
            }
            return view
        }

        func above(_ level: Int) -> [String: Value] { level == 0 ? store : view(level - 1) }

        func albums(_ level: Int) -> [String] {
            view(level).filter { if case .album = $0.value { true } else { false } }.keys.sorted()
        }

        func photos(_ level: Int, in album: String? = nil) -> [String] {
            view(level).filter { $0.value == .photo(album: album ?? "") || (album == nil && $0.key.hasPrefix("p")) }
                .keys.sorted()
        }

        /// Whether the levels below `level` have unsaved changes of `name`, or
        /// of which photos `name` holds: a level changing what a level below
        /// changed too is a conflict Core Data leaves to the application
        /// (the lower level's save would overwrite it), so the test avoids it.
        func changedBelow(_ level: Int, _ name: String) -> Bool {
            for changes in self.changes[(level + 1)...] {
                for (key, value) in changes {
                    if key == name || value == .photo(album: name) || view(level)[key] == .photo(album: name) {
                        return true
                    }
                }
            }
            return false
        }

        mutating func set(_ level: Int, _ name: String, _ value: Value?) {
            if value == nil, above(level)[name] == nil {
                // Deleting what this level inserted: it never existed above.
                changes[level].removeValue(forKey: name)
            } else {
                changes[level][name] = .some(value)
            }
        }

        mutating func save(_ level: Int) {
            let saved = changes[level]
            changes[level] = [:]
            for (name, value) in saved {
                if level == 0 { store[name] = value } else { set(level - 1, name, value) }
            }
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases, Array(1...8) as [UInt64])
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
            let free = { (name: String) in !model.changedBelow(level, name) }
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<2:
                counter += 1
                let (name, sheets) = ("a\(counter)", Int32.random(in: 0..<1000, using: &random))
                context.performAndWait {
                    _ = TestStack.insert("Album", into: context, ["name": name, "sheets": sheets])
                }
                model.set(level, name, .album(sheets: sheets))
            case 2..<4:
                guard let album = model.albums(level).filter(free).randomElement(using: &random) else { continue }
                counter += 1
                let name = "p\(counter)"
                try context.performAndWait { () throws in
                    let destination = try Self.object(album, in: context)
                    TestStack.insert("Photo", into: context, ["name": name, "album": destination])
                }
                model.set(level, name, .photo(album: album))
            case 4..<6:
                guard let name = model.albums(level).filter(free).randomElement(using: &random) else { continue }
                let sheets = Int32.random(in: 0..<1000, using: &random)
                try context.performAndWait { try Self.object(name, in: context).setValue(sheets, forKey: "sheets") }
                model.set(level, name, .album(sheets: sheets))
            case 6..<8:
                guard let photo = model.photos(level).filter(free).randomElement(using: &random),
                      case .photo(let from) = model.view(level)[photo], free(from),
                      let to = model.albums(level).filter(free).randomElement(using: &random) else { continue }
                try context.performAndWait { () throws in
                    try Self.object(photo, in: context).setValue(try Self.object(to, in: context), forKey: "album")
                }
                model.set(level, photo, .photo(album: to))
            case 8:
                guard let photo = model.photos(level).filter(free).randomElement(using: &random),
                      case .photo(let album) = model.view(level)[photo], free(album) else { continue }
                try context.performAndWait { context.delete(try Self.object(photo, in: context)) }
                model.set(level, photo, nil)
            case 9:
                guard let album = model.albums(level).filter(free).randomElement(using: &random),
                      model.photos(level, in: album).allSatisfy(free) else { continue }
                try context.performAndWait { context.delete(try Self.object(album, in: context)) }
                for photo in model.photos(level, in: album) { model.set(level, photo, nil) }
                model.set(level, album, nil)
            default:
                try context.performAndWait { try context.save() }
                model.save(level)
            }
            for (level, context) in levels.enumerated() {
                let seen = try Self.contents(of: context)
                #expect(seen == model.view(level), "seed \(seed), step \(step), level \(level)")
                if seen != model.view(level) { return }
            }
        }
        for context in levels.reversed() { try context.performAndWait { try context.save() } }
        for level in (0..<3).reversed() { model.save(level) }
        #expect(try Self.contents(of: try TestStack.reader(of: root)) == model.store)
    }

    static func object(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: name.hasPrefix("a") ? "Album" : "Photo")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    /// What `context` sees once its unchanged objects are refreshed; each
    /// album's photos must be the photos whose album it is.
    static func contents(of context: NSManagedObjectContext) throws -> [String: Value] {
        try context.performAndWait { () throws in
            context.refreshAllObjects()
            var contents: [String: Value] = [:]
            let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == albums.count)
            let photos = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            for photo in photos {
                let album = photo.value(forKey: "album") as? NSManagedObject
                let albumName = album?.value(forKey: "name") as? String ?? ""
                contents[photo.value(forKey: "name") as! String] = .photo(album: albumName)
            }
            for album in albums {
                let name = album.value(forKey: "name") as! String
                contents[name] = .album(sheets: album.value(forKey: "sheets") as? Int32 ?? 0)
                let members = TestStack.names(TestStack.set(album, "photos"))
                let expected = photos.filter { $0.value(forKey: "album") as? NSManagedObject === album }
                #expect(members == TestStack.names(expected), "photos of \(name)")
            }
            return contents
        }
    }
}
