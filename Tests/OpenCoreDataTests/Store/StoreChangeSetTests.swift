import Foundation
import Testing
@testable import OpenCoreDataCore

/// The versions a change set's deletes require, kept by position beside the
/// deleted records (`appendDeleted(_:version:)`), so that the SQLite writer
/// takes each record's version without looking it up by ID, and the merge
/// conflicts of a save still list every record deleted at a known version.
@Suite struct StoreChangeSetTests {
    private static let family = ObjectIDFamily(entity: NSEntityDescription(name: "Photo"), store: nil)

    private static func ids(_ count: Int) -> [NSManagedObjectID] {
        (1...Int64(count)).map { NSManagedObjectID(family: family, key: .permanent($0)) }
    }

    @Test func eachDeletedRecordKeepsItsVersion() {
        var changes = StoreChangeSet()
        let ids = Self.ids(5), versions: [Int64] = [3, 0, 1, 7, 0]
        for (id, version) in zip(ids, versions) { changes.appendDeleted(id, version: version) }
        #expect(changes.deleted == ids)
        #expect(changes.versionsOfEveryDeleted() == versions)
        #expect(changes.deletedVersions.map(\.id) == [ids[0], ids[2], ids[3]])
        #expect(changes.deletedVersions.map(\.version) == [3, 1, 7])
        #expect(changes.expectedVersions.map(\.version) == [3, 1, 7])
    }

    /// A negative version (none read) counts as none; a record listed twice keeps each listing's version.
    @Test func negativeVersionsAreNoneAndRepeatsKeepTheirOwn() {
        var changes = StoreChangeSet()
        let ids = Self.ids(2)
        changes.appendDeleted(ids[0], version: -1)
        changes.appendDeleted(ids[1], version: 2)
        changes.appendDeleted(ids[0], version: 4)
        #expect(changes.versionsOfEveryDeleted() == [0, 2, 4])
        #expect(changes.deletedVersions.map(\.version) == [2, 4])
    }

    /// Records put in `deleted` directly (it is public) have no version, before or after appended ones.
    @Test func recordsListedDirectlyHaveNoVersion() {
        var changes = StoreChangeSet()
        let ids = Self.ids(4)
        changes.deleted = [ids[0]]
        changes.appendDeleted(ids[1], version: 5)
        changes.deleted.append(ids[2])
        #expect(changes.versionsOfEveryDeleted() == [0, 5, 0])
        changes.appendDeleted(ids[3], version: 6)
        #expect(changes.versionsOfEveryDeleted() == [0, 5, 0, 6])
        #expect(changes.deletedVersions.map(\.id) == [ids[1], ids[3]])
    }
}
