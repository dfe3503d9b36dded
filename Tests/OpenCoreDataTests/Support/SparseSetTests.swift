import Testing
@testable import OpenCoreDataCore

/// `Set(sparse:)`, which notification sets use, against `Set(_:)` as the
/// model, with managed objects (hashed by identity) and with plain integers.
@Suite struct SparseSetTests {
    @Test func holdsTheSameElementsAsSetWithRoomToSpare() {
        var generator = SeededGenerator(seed: 7)
        for count in [0, 1, 2, 7, 100, 1_000] {
            let elements = (0..<count).map { _ in Int.random(in: 0..<(count + 1), using: &generator) }
            let sparse = Set(sparse: elements)
            #expect(sparse == Set(elements))
            #expect(sparse.capacity >= 4 * elements.count)
        }
    }

    @Test func managedObjectsAreEqualOnlyToThemselves() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        context.performAndWait {
            let albums = (0..<50).map { TestStack.insert("Album", into: context, ["name": "a\($0)"]) }
            let others = (0..<50).map { TestStack.insert("Album", into: context, ["name": "a\($0)"]) }
            let set = Set(sparse: albums + albums)
            #expect(set.count == 50 && albums.allSatisfy(set.contains) && !others.contains(where: set.contains))
            #expect(albums.allSatisfy { $0.hash == $0.hash && $0.isEqual($0) })
            #expect(Set(albums.map(\.hash)).count == 50)
        }
    }
}
