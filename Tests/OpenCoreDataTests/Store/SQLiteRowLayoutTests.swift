import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SQLiteRowLayout` works out once per entity and query where each column
/// sits and how it is read, and keeps the entity asked for last: rows of
/// several entities in one result must each get their own entity's reads.
@Suite struct SQLiteRowLayoutTests {
    @Test func eachRowGetsItsOwnEntitysReads() throws {
        let model = TestStack.albumsModel()
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        let mapping = try SQLiteMapping(model: model, configuration: nil)
        let album = try #require(model.entitiesByName["Album"]), photo = try #require(model.entitiesByName["Photo"])
        let albumNumber = try #require(mapping.entity(album)?.number)
        let photoNumber = try #require(mapping.entity(photo)?.number)
        let layout = SQLiteRowLayout(columnNames: ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZINDEX", "ZALBUM", "ZPATH"])
        for number in [photoNumber, photoNumber, albumNumber, photoNumber, albumNumber] {
            let reads = try #require(layout.reads(number: number, in: mapping))
            #expect(reads.description === (number == photoNumber ? photo : album))
            #expect(reads.entity.number == number)
        }
        #expect(layout.reads(number: 99, in: mapping) == nil)
        // A Z_ENT that names no entity (0, or anything a damaged file holds) finds none.
        #expect(mapping.entity(number: albumNumber) === album && mapping.entity(number: photoNumber) === photo)
        for number in [0, -1, Int.min, 3, 99, Int.max] { #expect(mapping.entity(number: number) == nil) }
        let reads = try #require(layout.reads(of: photo, in: mapping))
        #expect(reads === layout.reads(number: photoNumber, in: mapping))
        #expect((reads.entityPosition, reads.versionPosition) == (1, 2))
        let slots = photo.slotLayout.slotsByName
        let byPosition = Dictionary(uniqueKeysWithValues: reads.attributes.map { ($0.position, $0.slot) })
        #expect(byPosition == [3: slots["name"]!, 4: slots["index"]!, 6: slots["path"]!])
        let kinds = Dictionary(uniqueKeysWithValues: reads.attributes.map { ($0.slot, $0.kind) })
        #expect(kinds == [slots["name"]!: .string, slots["index"]!: .integer16, slots["path"]!: .string])
        #expect(reads.toOnes.map(\.keyPosition) == [5])
        #expect(reads.toOnes.first?.slot == slots["album"])
        // A column the query lacks (ZSHEETS) is not read; the to-many is left unread.
        let albumReads = try #require(layout.reads(of: album, in: mapping))
        #expect(albumReads.attributes.map(\.position) == [3])
        #expect(albumReads.toManySlots == [album.slotLayout.slotsByName["photos"]!])
    }
}
