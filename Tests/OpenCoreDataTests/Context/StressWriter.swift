import Foundation
@testable import OpenCoreDataCore

/// One round of a writer of ConcurrentContextsStressTests, and one pass of
/// its reader; each runs on its context's queue.
enum StressWriter {
    /// Forgets what the context held (it is stale: other writers saved since),
    /// fetches albums and photos, makes one to four random changes among
    /// insert, update, move, delete photo and delete album, and saves. A
    /// failed fetch or save is counted and the context rolled back.
    static func round(_ context: NSManagedObjectContext, index: Int, serial: inout Int,
                      random: inout SeededGenerator, tally: StressTally) {
        context.reset()
        do {
            var albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            var photos = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                change(context, &albums, &photos, name: { serial += 1; return "w\(index)-\(serial)" }, random: &random)
            }
            try context.save()
            tally.saved()
        } catch {
            context.rollback()
            tally.failed(error)
        }
    }

    /// One change; the store is kept near a dozen albums of a few photos each.
    static func change(_ context: NSManagedObjectContext, _ albums: inout [NSManagedObject],
                       _ photos: inout [NSManagedObject], name: () -> String, random: inout SeededGenerator) {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case ..<20 where albums.count < 15, _ where albums.isEmpty:
            let album = TestStack.insert("Album", into: context, ["name": name(), "sheets": Int32(0)])
            albums.append(album)
            for p in 0..<Int.random(in: 0...3, using: &random) {
                let values: [String: Any] = ["name": name(), "index": Int16(p), "album": album]
                photos.append(TestStack.insert("Photo", into: context, values))
            }
        case ..<35 where photos.count < 60:
            let album = albums.randomElement(using: &random)!
            photos.append(TestStack.insert("Photo", into: context, ["name": name(), "album": album]))
        case ..<55:
            let album = albums.randomElement(using: &random)!
            album.setValue(Int32.random(in: 0...1000, using: &random), forKey: "sheets")
            if let photo = photos.randomElement(using: &random) { photo.setValue(name(), forKey: "path") }
        case ..<80:
            // Move a photo to another album, or out of every album.
            guard let photo = photos.randomElement(using: &random) else { return }
            photo.setValue(Int.random(in: 0..<5, using: &random) == 0 ? nil : albums.randomElement(using: &random),
                           forKey: "album")
        case ..<92:
            guard let photo = photos.randomElement(using: &random) else { return }
            context.delete(photo)
            photos.removeAll { $0 === photo }
        default:
            guard albums.count > 3, let album = albums.randomElement(using: &random) else { return }
            context.delete(album) // Cascade: its photos go with it.
            albums.removeAll { $0 === album }
            photos.removeAll { $0.value(forKey: "album") as? NSManagedObject === album || $0.isDeleted }
        }
    }

    /// The reader's pass: every photo's album and every album's photos, as
    /// merged so far; every tenth pass starts from a reset context (refetch).
    static func read(_ context: NSManagedObjectContext, tally: StressTally) {
        if tally.figures.reads % 10 == 9 { context.reset() }
        do {
            for album in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")) {
                _ = TestStack.set(album, "photos").count
            }
            for photo in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")) {
                _ = (photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name")
            }
        } catch {
            // A row another context just deleted: the next pass sees the merge.
        }
        tally.read()
    }
}
