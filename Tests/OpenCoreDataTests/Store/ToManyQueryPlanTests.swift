import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// Reading to-many relationships (faults, delete waves, prefetching) asks
/// SQLite for rows in the order an index already keeps them: by owner, then
/// by the destination's key, so that SQLite sorts nothing (a sort of the
/// rows through a temporary b-tree cost ~1.4k instructions per row).
/// Checked on the plans SQLite gives for the store's own queries.
@Suite struct ToManyQueryPlanTests {
    /// The plan of every to-many query of `model`'s entities (for 3 owners) on a new SQLite store.
    static func plans(_ model: NSManagedObjectModel) throws -> [String: String] {
        let context = try TestStack.context(model, .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        var plans: [String: String] = [:]
        try DatabaseQueue(path: try #require(store.url).path).read { db in
            for entity in model.entities {
                for (relationship, storage) in try #require(store.mapping.entity(entity)).relationships
                where relationship.isToMany {
                    let destination = try #require(relationship.destinationEntity.flatMap(store.mapping.entity))
                    let sql = try #require(SQLiteRecordReader.destinationQuery(
                        storage, destinationTable: destination.table, owners: "?, ?, ?"))
                    let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [1, 2, 3])
                    plans["\(entity.name!).\(relationship.name)"] = rows.map { $0["detail"] as String }
                        .joined(separator: "; ")
                }
            }
        }
        return plans
    }

    /// A one-to-many with its inverse key column (Album.photos), a
    /// many-to-many (Quake.countries, Country.quakes).
    @Test func unorderedToManyReadsSortNothing() throws {
        var plans = try Self.plans(SeedModels.frozenTime())
        plans.merge(try Self.plans(SQLiteSetDeleteTests.quakesModel())) { first, _ in first }
        let unordered = ["Album.photos", "Quake.countries", "Country.quakes"]
        for name in unordered {
            let plan = try #require(plans[name], "\(plans.keys.sorted())")
            #expect(!plan.contains("TEMP B-TREE"), "\(name): \(plan)")
            #expect(plan.contains("INDEX"), "\(name) reads through an index: \(plan)")
        }
    }
}
