import Testing
import GRDB
@testable import OpenCoreDataCore

/// A fetch that reads its records in full sorts them in memory
/// (SQLiteRecordSort) instead of by SQL's ORDER BY: the order must be the
/// one SQL gives. The oracle is the same request with a fetch limit above
/// the row count, which SQLite sorts (LIMIT applies to the ORDER BY).
@Suite struct SQLiteRecordSortTests {
    /// Item (every sortable kind) with sub-entity Special.
    static func model() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item"), special = NSEntityDescription(name: "Special")
        item.subentities = [special]
        item.properties = [
            TestStack.attribute("name", .stringAttributeType), TestStack.attribute("code", .stringAttributeType),
            TestStack.attribute("rank", .integer16AttributeType),
            TestStack.attribute("big", .integer64AttributeType), TestStack.attribute("flag", .booleanAttributeType),
            TestStack.attribute("score", .doubleAttributeType), TestStack.attribute("single", .floatAttributeType),
            TestStack.attribute("when", .dateAttributeType),
        ]
        special.properties = [TestStack.attribute("power", .integer32AttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item, special]
        return model
    }

    /// Names whose `compare:` order is not their bytes' (accents precomposed
    /// and decomposed, case, a private-use and a fullwidth letter, an emoji).
    static let names = ["ann", "Ann", "anna", "", "b", "Bób", "Bo\u{301}b", "zoë", "zoe\u{308}", "Zoe", "émile",
                        "e\u{301}mile", "\u{E000}x", "\u{FF21}", "😀", "a-12", "a-2", "photo 10", "photo 9",
                        "photo 100", "photo 10a", "photo 10a é"]

    /// ASCII only, so that their leading words order them (SQLiteSortColumn.word): shared prefixes, prefixes of others.
    static let codes = ["", "a", "A", "ab", "abcdefgh", "abcdefghi", "abcdefgh0", "abcdefg", "b~", "b ", "Zz"]

    static func keys() -> [String] { ["name", "code", "rank", "big", "flag", "score", "single", "when"] }

    /// One to three sort descriptors of random keys and directions.
    static func randomSort(using random: inout SeededGenerator) -> [NSSortDescriptor] {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in
            NSSortDescriptor(key: keys().randomElement(using: &random)!, ascending: Bool.random(using: &random))
        }
    }

    /// `count` items and specials with random values, some nil, saved; the context is reset.
    static func store(count: Int, seed: UInt64) throws -> (NSManagedObjectContext, SQLiteStore) {
        let context = try TestStack.context(model(), .sqlite)
        var random = SeededGenerator(seed: seed)
        try context.performAndWait { () throws in
            for _ in 0..<count {
                let object = TestStack.insert(Bool.random(using: &random) ? "Item" : "Special", into: context)
                func maybe(_ value: @autoclosure () -> Any) -> Any? {
                    Int.random(in: 0..<8, using: &random) == 0 ? nil : value()
                }
                object.setValue(maybe(names.randomElement(using: &random)!), forKey: "name")
                object.setValue(maybe(codes.randomElement(using: &random)!), forKey: "code")
                object.setValue(maybe(Int16.random(in: -3...3, using: &random)), forKey: "rank")
                object.setValue(maybe(Int64.random(in: Int64.max - 4...Int64.max, using: &random)), forKey: "big")
                object.setValue(maybe(Bool.random(using: &random)), forKey: "flag")
                object.setValue(maybe([-0.0, 0.0, -1e300, 1e300, -2, -0.5, 0.5, 2, 3].randomElement(using: &random)!),
                                forKey: "score")
                object.setValue(maybe(Float(Int.random(in: -4...4, using: &random)) / 4), forKey: "single")
                let seconds = Double(Int.random(in: 0...5, using: &random)) * 0.5
                object.setValue(maybe(Date(timeIntervalSinceReferenceDate: seconds)), forKey: "when")
            }
            try context.save()
            context.reset()
        }
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        return (context, store)
    }

    /// The IDs `request` fetches as records, sorted in memory (with `limit` 0) or by SQL (a limit above the rows).
    static func fetch(_ entity: String, _ descriptors: [NSSortDescriptor], limit: Int = 0,
                      in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.sortDescriptors = descriptors
        request.returnsObjectsAsFaults = false
        request.fetchLimit = limit
        return try context.fetch(request).map(\.objectID)
    }

    /// 300 random sorts of one to three keys, each way, on the entity and its sub-entity.
    @Test func inMemoryOrderIsSQLOrder() throws {
        let (context, store) = try Self.store(count: 400, seed: 13)
        var random = SeededGenerator(seed: 7)
        try context.performAndWait { () throws in
            for round in 0..<300 {
                let descriptors = Self.randomSort(using: &random)
                let entity = round % 4 == 0 ? "Special" : "Item"
                let sorts = store.recordSortCount
                let inMemory = try Self.fetch(entity, descriptors, in: context)
                #expect(store.recordSortCount == sorts + 1)
                let bySQL = try Self.fetch(entity, descriptors, limit: 10_000, in: context)
                #expect(store.recordSortCount == sorts + 1)
                #expect(inMemory == bySQL, "\(entity) by \(descriptors.map { "\($0.key!) \($0.ascending)" })")
                context.reset()
            }
        }
    }

    /// Values SQL orders otherwise than as they are read (text in an integer
    /// column, a boolean of 2, a string cut at a NUL byte, invalid UTF-8, an
    /// integer too large for an Integer 16) send the fetch back to SQL's order.
    @Test func valuesReadOtherwiseThanStoredSortBySQL() throws {
        let (context, store) = try Self.store(count: 60, seed: 21)
        let url = try #require(store.url)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE ZITEM SET ZRANK = 'text' WHERE Z_PK = 3")
            try db.execute(sql: "UPDATE ZITEM SET ZFLAG = 2 WHERE Z_PK = 5")
            try db.execute(sql: "UPDATE ZITEM SET ZNAME = 'ann' || char(0) || 'a' WHERE Z_PK = 7")
            try db.execute(sql: "UPDATE ZITEM SET ZNAME = CAST(x'61ff62' AS TEXT) WHERE Z_PK = 9")
            try db.execute(sql: "UPDATE ZITEM SET ZRANK = 100000 WHERE Z_PK = 11")
        }
        try context.performAndWait { () throws in
            for key in ["rank", "flag", "name"] {
                for ascending in [true, false] {
                    let descriptors = [NSSortDescriptor(key: key, ascending: ascending)]
                    let sorts = store.recordSortCount
                    let fetched = try Self.fetch("Item", descriptors, in: context)
                    #expect(store.recordSortCount == sorts, "\(key) was sorted in memory")
                    #expect(fetched == (try Self.fetch("Item", descriptors, limit: 10_000, in: context)))
                    context.reset()
                }
            }
            // The undamaged columns still sort in memory.
            let sorts = store.recordSortCount
            _ = try Self.fetch("Item", [NSSortDescriptor(key: "score", ascending: true)], in: context)
            #expect(store.recordSortCount == sorts + 1)
        }
    }

    /// Sorts memory does not take (a key path, another selector, a
    /// comparator, a window) stay with SQL.
    @Test func otherSortsStayWithSQL() throws {
        let (context, store) = try Self.store(count: 20, seed: 3)
        let sorts = store.recordSortCount
        try context.performAndWait { () throws in
            _ = try Self.fetch("Item", [NSSortDescriptor(key: "name", ascending: true,
                                                         selector: Selector("caseInsensitiveCompare:"))], in: context)
            _ = try Self.fetch("Item", [NSSortDescriptor(key: "name", ascending: true) { _, _ in .orderedSame }],
                               in: context)
            _ = try Self.fetch("Item", [NSSortDescriptor(key: "name", ascending: true)], limit: 5, in: context)
            _ = try Self.fetch("Item", [], in: context)
        }
        #expect(store.recordSortCount == sorts)
    }
}

extension SQLiteRecordSortTests {
    /// A file larger than SQLiteRecordSort.largestFile sorts by SQL: its
    /// fetches may make more records than the caches hold, and records made
    /// in table order and visited in sorted order then miss them.
    @Test func largeFilesSortBySQL() throws {
        let (context, store) = try Self.store(count: 50, seed: 5)
        let descriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let sorts = store.recordSortCount
        _ = try context.performAndWait { try Self.fetch("Item", descriptors, in: context) }
        #expect(store.recordSortCount == sorts + 1)
        let url = try #require(store.url)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
            try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(?))", arguments: [SQLiteRecordSort.largestFile])
        }
        let (fetched, bySQL) = try context.performAndWait {
            context.reset()
            return (try Self.fetch("Item", descriptors, in: context),
                    try Self.fetch("Item", descriptors, limit: 10_000, in: context))
        }
        #expect(store.recordSortCount == sorts + 1)
        #expect(fetched == bySQL && fetched.count == 50)
    }
}

extension SQLiteRecordSortTests {
    /// A fetch sorted by SQL reads its records from `SELECT t0.*` alone,
    /// finding `Z_PK` and `Z_ENT` by name (the key and entity named again
    /// made SQLite's sorter compare rows its slow way): a file whose table
    /// has its columns in another order reads the same objects and values.
    @Test func sortBySQLFindsKeyAndEntityByName() throws {
        let (context, store) = try Self.store(count: 80, seed: 17)
        let descriptors = [NSSortDescriptor(key: "name", ascending: true),
                           NSSortDescriptor(key: "big", ascending: false)]
        func fetched(in context: NSManagedObjectContext) throws -> [[String]] {
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.sortDescriptors = descriptors
                request.returnsObjectsAsFaults = false
                request.fetchLimit = 10_000  // a window: sorted by SQL
                return try context.fetch(request).map { object in
                    [object.objectID.uriRepresentation().absoluteString, object.entity.name ?? ""]
                        + Self.keys().map { "\(object.value(forKey: $0) ?? "nil")" }
                }
            }
        }
        let before = try fetched(in: context)
        let url = try #require(store.url)
        try DatabaseQueue(path: url.path).write { db in
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('ZITEM')")
            #expect(Array(columns.prefix(2)) == ["Z_PK", "Z_ENT"])
            let types = try String.fetchAll(db, sql: "SELECT type FROM pragma_table_info('ZITEM')")
            let reversed = zip(columns, types).reversed()
                .map { $0 == "Z_PK" ? "Z_PK INTEGER PRIMARY KEY" : "\($0) \($1)" }
            try db.execute(sql: "CREATE TABLE ZITEM_REVERSED (\(reversed.joined(separator: ", ")))")
            let list = columns.joined(separator: ", ")
            try db.execute(sql: "INSERT INTO ZITEM_REVERSED (\(list)) SELECT \(list) FROM ZITEM")
            try db.execute(sql: "DROP TABLE ZITEM")
            try db.execute(sql: "ALTER TABLE ZITEM_REVERSED RENAME TO ZITEM")
        }
        let after = try fetched(in: TestStack.reader(of: context))
        #expect(after.count == 80)
        #expect(after == before)
    }
}
