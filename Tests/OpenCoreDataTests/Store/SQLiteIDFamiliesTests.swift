import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SQLiteIDFamilies`: the IDs a read makes through it are the store's own
/// for every number of the range that names an entity, and none for a
/// number outside the range or of no entity (a damaged `Z_ENT`).
@Suite struct SQLiteIDFamiliesTests {
    @Test func numbersOfTheRangeMakeTheStoresIDs() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let model = try #require(context.persistentStoreCoordinator?.managedObjectModel)
        let entities = try ["Album", "Photo"].map { name in
            try #require(model.entitiesByName[name].flatMap(store.mapping.entity))
        }
        let last = entities.map(\.number).max()!
        let families = SQLiteIDFamilies(store: store, numbers: 1...(last + 1))
        for entity in entities {
            for pk: Int64 in [1, 7, 1 << 40] {
                let id = try #require(families.objectID(entityNumber: entity.number, primaryKey: pk))
                #expect(id == store.objectID(for: entity.description, primaryKey: pk))
                #expect(id.entity === entity.description && id.primaryKey == pk)
            }
        }
        // In the range but no entity's, and outside it on either side.
        for number in [last + 1, 0, last + 2, -1] {
            #expect(families[number] == nil && families.objectID(entityNumber: number, primaryKey: 1) == nil)
        }
        let photoOnly = SQLiteIDFamilies(store: store, numbers: entities[1].number...entities[1].number)
        #expect(photoOnly[entities[0].number] == nil && photoOnly[entities[1].number] != nil)
    }
}
