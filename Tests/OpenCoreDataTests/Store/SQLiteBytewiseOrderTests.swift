import Testing
import GRDB
import GRDBSQLite
@testable import OpenCoreDataCore

/// A fetch that SQL sorts orders `compare:` strings by their bytes, as Core
/// Data's SQL does (`ORDER BY t0.ZTITLE`, no collation: SQLDebug captures
/// in public write-ups, e.g. "ORDER BY t0.ZAUTHOR, t0.ZTITLE"), checks the
/// rows against `compare:` as it reads them (``SQLiteBytewiseOrderCheck``)
/// and sorts again by the collation when they disagree. The oracle is the
/// same request with a fetch limit above the row count: a window is sorted
/// by the collation from the start.
@Suite struct SQLiteBytewiseOrderTests {
    typealias Fixture = SQLiteRecordSortTests

    /// The IDs of `entity` sorted by `descriptors` through SQL: in batches
    /// (the keys path), as faults without values, as objects read with their
    /// records (from a file too large to sort them in memory), or windowed (the oracle).
    enum Way: CaseIterable { case batched, faults, records, windowed }

    static func fetch(_ entity: String, _ descriptors: [NSSortDescriptor], _ way: Way,
                      in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        if way == .records {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.sortDescriptors = descriptors
            request.returnsObjectsAsFaults = false
            return try context.fetch(request).map(\.objectID)
        }
        let request = NSFetchRequest<NSManagedObjectID>(entityName: entity)
        request.resultType = .managedObjectIDResultType
        request.sortDescriptors = descriptors
        switch way {
        case .batched: request.fetchBatchSize = 7
        case .faults: request.includesPropertyValues = false
        case .windowed: request.fetchLimit = 10_000
        case .records: break  // fetched above
        }
        return try context.fetch(request)
    }

    /// 300 random sorts of one to three keys, each way, over names whose
    /// bytes and `compare:` disagree and ASCII codes whose never do.
    @Test func bytewiseSortsGiveTheCollationsOrder() throws {
        let (context, store) = try Fixture.store(count: 400, seed: 29)
        try DatabaseQueue(path: try #require(store.url).path).write { db in
            try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
            try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(?))", arguments: [SQLiteRecordSort.largestFile])
        }
        let sorts = store.recordSortCount
        var random = SeededGenerator(seed: 11)
        var fellBack = false
        try context.performAndWait { () throws in
            for round in 0..<300 {
                let descriptors = Fixture.randomSort(using: &random)
                let entity = round % 4 == 0 ? "Special" : "Item"
                let expected = try Self.fetch(entity, descriptors, .windowed, in: context)
                let fallbacks = store.bytewiseSortFallbackCount
                for way in [Way.batched, .faults, .records] {
                    #expect(try Self.fetch(entity, descriptors, way, in: context) == expected,
                            "\(entity) by \(descriptors.map { "\($0.key!) \($0.ascending)" }) \(way)")
                }
                let sortsNames = descriptors.contains { $0.key == "name" }
                // ASCII keys never disagree; names do, where both kinds of "é" meet.
                if !sortsNames { #expect(store.bytewiseSortFallbackCount == fallbacks) }
                fellBack = fellBack || store.bytewiseSortFallbackCount > fallbacks
                context.reset()
            }
        }
        #expect(store.recordSortCount == sorts, "records were sorted in memory, not by SQL")
        #expect(fellBack, "no sort by name found its bytes out of compare: order")
    }

    /// Names in `compare:` order that their bytes reverse, and names equal
    /// to `compare:` with different bytes: the fetch sorts by the collation.
    @Test func disagreeingBytesSortByTheCollation() throws {
        let context = try TestStack.context(Fixture.model(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        // "e" + U+0301 + "x" is after "éa" in compare: order (canonically "éx"), before it in bytes (0x65 < 0xC3).
        let names = ["e\u{301}x", "éa", "é", "e\u{301}", "b"]
        try context.performAndWait { () throws in
            for name in names { TestStack.insert("Item", into: context).setValue(name, forKey: "name") }
            try context.save()
            context.reset()
            for ascending in [true, false] {
                let descriptors = [NSSortDescriptor(key: "name", ascending: ascending)]
                let fallbacks = store.bytewiseSortFallbackCount
                let sorted = try Self.fetch("Item", descriptors, .batched, in: context)
                #expect(store.bytewiseSortFallbackCount == fallbacks + 1)
                #expect(sorted == (try Self.fetch("Item", descriptors, .windowed, in: context)))
                let order = try sorted.map {
                    try #require(context.existingObject(with: $0).value(forKey: "name") as? String)
                }
                // The two spellings of "é" tie in compare: order; their primary keys (3, 4) decide, both ways.
                let expected = ascending ? ["b", "é", "e\u{301}", "éa", "e\u{301}x"]
                                         : ["e\u{301}x", "éa", "é", "e\u{301}", "b"]
                #expect(order.map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) })
            }
        }
    }

    /// A sort whose strings are all ASCII is never sorted again.
    @Test func asciiStringsSortOnce() throws {
        let context = try TestStack.context(Fixture.model(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait { () throws in
            for (index, code) in ["b", "B", "a", "", "ab", "b", nil, "a b"].enumerated() {
                let item = TestStack.insert("Item", into: context)
                item.setValue(code, forKey: "code")
                item.setValue(Int16(index % 3), forKey: "rank")
            }
            try context.save()
            context.reset()
            let descriptors = [NSSortDescriptor(key: "rank", ascending: false),
                               NSSortDescriptor(key: "code", ascending: true)]
            let sorted = try Self.fetch("Item", descriptors, .batched, in: context)
            #expect(store.bytewiseSortFallbackCount == 0)
            #expect(sorted == (try Self.fetch("Item", descriptors, .windowed, in: context)))
            let pairs = try sorted.map { id in
                let item = try context.existingObject(with: id)
                return "\(item.value(forKey: "rank") as? Int16 ?? -1):\(item.value(forKey: "code") as? String ?? "nil")"
            }
            #expect(pairs == ["2:a", "2:b", "1:B", "1:a b", "1:ab", "0:nil", "0:", "0:b"])
        }
    }

    /// A sort by a string with a fetch index reads the index in order: SQLite
    /// sorts nothing (with `COLLATE NSCOMPARE` it sorted every row in a
    /// temporary b-tree). The plans are SQLite's for the store's own SELECTs.
    @Test func anIndexedStringSortsWithoutASort() throws {
        let item = NSEntityDescription(name: "Item")
        item.properties = [TestStack.attribute("name", .stringAttributeType),
                           TestStack.attribute("rank", .integer32AttributeType)]
        item.indexes = [NSFetchIndexDescription(name: "byName", elements: [
            NSFetchIndexElementDescription(propertyName: "name", collationType: .binary, isAscending: true)])]
        let model = NSManagedObjectModel()
        model.entities = [item]
        let context = try TestStack.context(model, .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        func plan(_ descriptors: [NSSortDescriptor], prefetching: Bool) throws -> String {
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
            request.sortDescriptors = descriptors
            let fetch = StoreFetch(entity: item, request: request, appliesWindow: true)
            let sql = try #require(SQLiteFetchExecution(store: store, fetch: fetch).selectSQL(prefetching: prefetching))
            return try store.readOneQuery { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
                    .joined(separator: "; ")
            }
        }
        for prefetching in [false, true] {
            let byName = try plan([NSSortDescriptor(key: "name", ascending: true)], prefetching: prefetching)
            #expect(byName.contains("byName") && !byName.contains("TEMP B-TREE"), "\(byName)")
            // Descending, the index is read backwards; only rows of equal names are put in key order.
            let backwards = try plan([NSSortDescriptor(key: "name", ascending: false)], prefetching: prefetching)
            #expect(backwards.contains("byName") && !backwards.contains("TEMP B-TREE FOR ORDER BY"), "\(backwards)")
            // A string compared otherwise still sorts (the index orders bytes, not cases).
            let caseInsensitive = NSSortDescriptor(key: "name", ascending: true,
                                                   selector: Selector("caseInsensitiveCompare:"))
            let caseless = try plan([caseInsensitive], prefetching: prefetching)
            #expect(caseless.contains("TEMP B-TREE"), "\(caseless)")
        }
    }

    /// The check on its own, over rows SQLite sorted with BINARY: every
    /// storage class, 1 against 1.0, equal text and blobs, both directions.
    @Test func theCheckFollowsSQLitesOrderOutsideText() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (k, n)")
            let values: [DatabaseValueConvertible?] = [nil, nil, 1, 1.0, 1, 2.5, 3, "a", "a", "b", "é",
                                                       Data([1]), Data([1]), Data([2])]
            for (index, value) in values.enumerated() {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [value, index % 2])
            }
        }
        for ascending in [true, false] {
            let direction = ascending ? "ASC" : "DESC"
            try db.read { db in
                let statement = try db.makeStatement(sql: "SELECT k, n FROM t ORDER BY k \(direction), n")
                var check = SQLiteBytewiseOrderCheck(keys: [.init(column: 0, ascending: ascending),
                                                            .init(column: 1, ascending: true)])
                let rows = try Row.fetchCursor(statement)
                var count = 0
                while try rows.next() != nil {
                    let kept = check.rowKeepsOrder(statement.sqliteStatement)
                    #expect(kept, "row \(count) \(direction)")
                    count += 1
                }
                #expect(count == 14)
            }
        }
        // Text in byte order that compare: reverses, or holds equal with other bytes, fails it.
        for pair in [["e\u{301}x", "éa"], ["e\u{301}", "é"]] {
            try db.read { db in
                let statement = try db.makeStatement(sql: "SELECT column1 FROM (VALUES (?), (?)) ORDER BY column1")
                statement.arguments = StatementArguments(pair)
                var check = SQLiteBytewiseOrderCheck(keys: [.init(column: 0, ascending: true)])
                let rows = try Row.fetchCursor(statement)
                var kept: [Bool] = []
                while try rows.next() != nil { kept.append(check.rowKeepsOrder(statement.sqliteStatement)) }
                #expect(kept == [true, false], "\(pair)")
            }
        }
    }
}
