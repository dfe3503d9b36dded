import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// NSBatchInsertRequest (https://developer.apple.com/documentation/coredata/nsbatchinsertrequest, iOS 13):
/// dictionaries or handlers, result types statusOnly/objectIDs/count; "It doesn't update or insert
/// relationships", "doesn't apply any Core Data validation rules", "keys must exactly match your Core Data
/// entities" (https://swiftstudent.com/2020-03-29-nsbatchinsertrequest/).
@Suite struct BatchInsertRequestTests {
    /// Product: `serial` unique, `name`, `stock` (Int32, default 7), `price` (Double), `added` (Date),
    /// `code` (UUID); `maker` ⟷ Maker.products.
    static func model(unique: Bool = true) -> NSManagedObjectModel {
        let product = NSEntityDescription(name: "Product"), maker = NSEntityDescription(name: "Maker")
        let stock = TestStack.attribute("stock", .integer32AttributeType)
        stock.defaultValue = 7
        let makerOf = TestStack.relationship("maker", to: maker)
        let products = TestStack.relationship("products", to: product, toMany: true)
        TestStack.pair(makerOf, products)
        product.properties = [TestStack.attribute("serial", .stringAttributeType),
                              TestStack.attribute("name", .stringAttributeType), stock,
                              TestStack.attribute("price", .doubleAttributeType),
                              TestStack.attribute("added", .dateAttributeType),
                              TestStack.attribute("code", .UUIDAttributeType), makerOf]
        if unique { product.uniquenessConstraints = [["serial"]] }
        maker.properties = [TestStack.attribute("name", .stringAttributeType), products]
        let model = NSManagedObjectModel()
        model.entities = [maker, product]
        return model
    }

    static func rows(_ sql: String, in context: NSManagedObjectContext) throws -> [Row] {
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        return try DatabaseQueue(path: url.path).read { try Row.fetchAll($0, sql: sql) }
    }

    static func execute(_ request: NSBatchInsertRequest, in context: NSManagedObjectContext) throws -> Any? {
        try #require(try context.execute(request) as? NSBatchInsertResult).result
    }

    @Test func insertsDictionariesAsASaveStoresThem() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let added = Date(timeIntervalSinceReferenceDate: 1000.5), code = UUID()
        try context.performAndWait { () throws in
            let request = NSBatchInsertRequest(entityName: "Product", objects: [
                ["serial": "A", "name": "anvil", "stock": 3, "price": NSNumber(value: 9.5), "added": added,
                 "code": code],
                ["serial": "B", "name": "bolt", "stock": Int64(2), "price": 1],
                ["serial": "C", "name": NSNull()],
            ])
            request.resultType = .objectIDs
            let ids = try #require(try Self.execute(request, in: context) as? [NSManagedObjectID])
            #expect(ids.map(\.primaryKey) == [1, 2, 3] && ids.allSatisfy { $0.entity.name == "Product" })
            let anvil = try #require(context.object(with: ids[0]) as NSManagedObject?)
            #expect(anvil.value(forKey: "name") as? String == "anvil" && anvil.value(forKey: "stock") as? Int32 == 3)
            #expect(anvil.value(forKey: "added") as? Date == added && anvil.value(forKey: "code") as? UUID == code)
            // Left out: the default value; NSNull: nil.
            #expect(context.object(with: ids[2]).value(forKey: "stock") as? Int32 == 7)
            #expect(context.object(with: ids[2]).value(forKey: "name") == nil)

            // Keys go on from the batch: a save after it gets a fresh primary key.
            TestStack.insert("Product", into: context, ["serial": "D"])
            try context.save()
            request.objectsToInsert = [["serial": "E"]]
            request.resultType = .count
            #expect(try Self.execute(request, in: context) as? Int == 1)
            request.resultType = .statusOnly
            request.objectsToInsert = []
            #expect(try Self.execute(request, in: context) as? Bool == true)
        }
        let stored = try Self.rows("SELECT ZSERIAL, Z_PK, Z_OPT, Z_ENT, ZADDED, length(ZCODE) FROM ZPRODUCT "
                                   + "ORDER BY Z_PK", in: context)
        #expect(stored.map { $0[0] as String } == ["A", "B", "C", "D", "E"])
        #expect(stored.map { $0[1] as Int } == [1, 2, 3, 4, 5] && stored.allSatisfy { $0[2] as Int == 1 })
        #expect(stored[0][4] as Double == 1000.5 && stored[0][5] as Int == 16)
        let max = try Self.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Product'", in: context)
        #expect(max.first.map { $0[0] as Int } == 5)
    }

    /// The handlers are called until they return `true`; the dictionary or object of that last call is not
    /// inserted. The object handler's object starts with the default values, in no context.
    @Test func handlersFillOneRecordPerCall() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        try context.performAndWait { () throws in
            var calls = 0
            let dictionaries = NSBatchInsertRequest(entityName: "Product", dictionaryHandler: { dictionary in
                calls += 1
                #expect(dictionary.count == 0)
                dictionary["serial"] = "d\(calls)"
                #expect(dictionary["serial"] as? String == "d\(calls)" && dictionary.count == 1)
                return calls > 3
            })
            dictionaries.resultType = .count
            #expect(try Self.execute(dictionaries, in: context) as? Int == 3 && calls == 4)

            let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Product"])
            var serials = ["m1", "m2"]
            let objects = NSBatchInsertRequest(entity: entity, managedObjectHandler: { object in
                guard let serial = serials.popLast() else { return true }
                #expect(object.managedObjectContext == nil && object.value(forKey: "stock") as? Int32 == 7)
                object.setValue(serial, forKey: "serial")
                object.setValue(1.25, forKey: "price")
                return false
            })
            objects.resultType = .count
            #expect(try Self.execute(objects, in: context) as? Int == 2)
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Product")
            fetch.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
            let products = try context.fetch(fetch)
            #expect(products.map { $0.value(forKey: "serial") as? String } == ["d1", "d2", "d3", "m1", "m2"])
            #expect(products[3].value(forKey: "price") as? Double == 1.25)
            #expect(products[3].value(forKey: "stock") as? Int32 == 7)
        }
    }

    /// A value that does not fit its attribute, an unknown key or a relationship fails the request with an
    /// error naming the record and key, and nothing of the batch is written.
    @Test func badRecordsFailTheWholeBatch() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        try context.performAndWait { () throws in
            func failure(_ bad: [String: Any]) -> NSError? {
                let request = NSBatchInsertRequest(entityName: "Product",
                                                   objects: [["serial": "ok1"], ["serial": "ok2"], bad])
                do { _ = try context.execute(request); return nil } catch { return error as NSError }
            }
            let badValue = try #require(failure(["serial": "x", "stock": "many"]))
            #expect(badValue.code == NSManagedObjectValidationError)
            #expect(badValue.userInfo[NSValidationKeyErrorKey] as? String == "stock")
            #expect(badValue.localizedDescription.contains("record 2"))
            #expect(badValue.localizedDescription.contains("stock"))
            let tooBig = try #require(failure(["serial": "x", "stock": Int64.max]))
            #expect(tooBig.code == NSManagedObjectValidationError)
            let unknown = try #require(failure(["serial": "x", "colour": "red"]))
            #expect(unknown.code == NSPersistentStoreOperationError && unknown.localizedDescription.contains("colour"))
            #expect(unknown.localizedDescription.contains("record 2"))
            #expect(failure(["serial": "x", "maker": NSNull()])?.localizedDescription.contains("relationship") == true)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Product")) == 0)

            let unknownEntity = NSBatchInsertRequest(entityName: "Nope", objects: [[:]])
            #expect(throws: NSError.self) { try context.execute(unknownEntity) }
            let numberKey = NSBatchInsertRequest(entityName: "Product", dictionaryHandler: { dictionary in
                dictionary[1] = "one"
                return false
            })
            let keyError = #expect(throws: NSError.self) { try context.execute(numberKey) }
            #expect(keyError?.code == NSPersistentStoreOperationError)
        }
        #expect(try Self.rows("SELECT * FROM ZPRODUCT", in: context).isEmpty)
        let max = try Self.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Product'", in: context)
        #expect(max.first.map { $0[0] as Int } == 0)
    }

    /// Without uniqueness constraints the store takes many records per statement: keys, values and the
    /// all-or-nothing failure hold across statements and for a shorter last one.
    @Test func manyRecordsWithoutConstraints() throws {
        let context = try TestStack.context(Self.model(unique: false), .sqlite)
        try context.performAndWait { () throws in
            let objects: [[String: Any]] = (0..<150).map { ["serial": "s\($0)", "stock": $0] }
            let request = NSBatchInsertRequest(entityName: "Product",
                                               objects: objects + [["serial": "bad", "stock": "x"]])
            let error = #expect(throws: NSError.self) { try context.execute(request) }
            #expect(error?.localizedDescription.contains("record 150") == true)
            request.objectsToInsert = objects
            request.resultType = .objectIDs
            let ids = try #require(try Self.execute(request, in: context) as? [NSManagedObjectID])
            #expect(ids.map(\.primaryKey) == (1...150).map { Int64($0) })
            #expect(context.object(with: ids[149]).value(forKey: "serial") as? String == "s149")
            #expect(context.object(with: ids[70]).value(forKey: "stock") as? Int32 == 70)
        }
        let rows = try Self.rows("SELECT COUNT(*), SUM(ZSTOCK), MAX(Z_PK) FROM ZPRODUCT", in: context)
        #expect(rows[0][0] as Int == 150 && rows[0][1] as Int == 149 * 150 / 2 && rows[0][2] as Int == 150)
        let max = try Self.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Product'", in: context)
        #expect(max.first.map { $0[0] as Int } == 150)
    }

    /// Uniqueness constraints make the insert an upsert by the executing context's merge policy:
    /// "If we set NSManagedObjectContext's merge policy to NSMergeByPropertyObjectTrumpMergePolicy before
    /// executing the batch insert then Core Data goes and updates existing items with incoming attribute
    /// values" (https://augmentedcode.io/2021/01/05/importing-items-from-network-to-a-core-data-store/); the
    /// stored record's attributes are all replaced, those the request leaves out by their default values
    /// (Stack Overflow 66954391: a property the handler did not set was reset to its default, "even though
    /// I'm using NSMergeByPropertyObjectTrumpMergePolicy"). The store-trump and rollback policies keeping the
    /// stored record, and the default error policy failing with 133021, are [Inf].
    @Test func uniquenessConstraintsMakeAnUpsert() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        try context.performAndWait { () throws in
            let maker = TestStack.insert("Maker", into: context, ["name": "acme"])
            let stored = TestStack.insert("Product", into: context,
                                          ["serial": "A", "name": "old", "stock": 50, "maker": maker])
            try context.save()
            let storedID = stored.objectID
            let request = NSBatchInsertRequest(entityName: "Product",
                                               objects: [["serial": "A", "name": "new"], ["serial": "B"]])
            request.resultType = .objectIDs

            let refused = #expect(throws: NSError.self) { try context.execute(request) }
            #expect(refused?.code == NSManagedObjectConstraintMergeError)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Product")) == 1)

            context.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
            let kept = try #require(try Self.execute(request, in: context) as? [NSManagedObjectID])
            #expect(kept.count == 1 && kept[0] != storedID)

            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            request.objectsToInsert = [["serial": "A", "name": "new"]]
            let updated = try #require(try Self.execute(request, in: context) as? [NSManagedObjectID])
            #expect(updated == [storedID])
            // Registered objects keep their values until merged.
            #expect(stored.value(forKey: "name") as? String == "old")
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: updated], into: [context])
            #expect(stored.value(forKey: "name") as? String == "new" && stored.value(forKey: "stock") as? Int32 == 7)
            #expect((stored.value(forKey: "maker") as? NSManagedObject) == maker)
        }
        let rows = try Self.rows("SELECT ZSERIAL, ZNAME, Z_OPT, ZMAKER FROM ZPRODUCT ORDER BY ZSERIAL", in: context)
        #expect(rows.map { $0[0] as String } == ["A", "B"] && rows[0][1] as String == "new" && rows[0][2] as Int == 2)
        #expect((rows[0][3] as Int64?) != nil)
    }

    /// Apple's batch requests run on SQLite stores only (NSPersistentStoreUnsupportedRequestTypeError, 134091).
    @Test func otherStoresRefuseTheRequest() throws {
        let context = try TestStack.context(Self.model(), .inMemory)
        try context.performAndWait { () throws in
            let error = #expect(throws: NSError.self) {
                try context.execute(NSBatchInsertRequest(entityName: "Product", objects: [["serial": "A"]]))
            }
            #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
        }
    }
}
