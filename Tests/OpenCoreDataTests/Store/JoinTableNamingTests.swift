import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// Apple's join-table names, from the stores of one messaging app at model
/// versions 2.78.0 and 2.101.0 (shared/reference/join-tables.md), and the
/// reader that takes the names an existing file has instead of computed ones.
@Suite struct JoinTableNamingTests {
    /// The entities of the app's model 2.78.0 in Z_ENT order, listed by name
    /// as Xcode writes them; only the many-to-many pairs the reference shows
    /// have properties. SystemMessage is a sub-entity of Message.
    static func messagingModel(userClientNumber: Int = 22) -> NSManagedObjectModel {
        var names = ["Action", "AddressBookEntry", "Connection", "Conversation", "GenericMessageData", "Label",
                     "Member", "Message", "AssetClientMessage", "ClientMessage", "ImageMessage", "KnockMessage",
                     "SystemMessage", "TextMessage", "MessageConfirmation", "ParticipantRole", "Reaction", "Role",
                     "Session", "Team", "User", "UserClient"]
        // 2.101.0 has two more entities before UserClient (ButtonState, Feature): UserClient becomes 24.
        names.insert(contentsOf: (22..<userClientNumber).map { "Aaa\($0)" }, at: 0)
        let entities = Dictionary(uniqueKeysWithValues: names.map { ($0, NSEntityDescription(name: $0)) })
        let message = entities["Message"]!
        message.subentities = ["AssetClientMessage", "ClientMessage", "ImageMessage", "KnockMessage", "SystemMessage",
                               "TextMessage"].map { entities[$0]! }
        func manyToMany(_ a: String, _ name: String, _ b: String, _ inverse: String, ordered: Bool = false) {
            let forward = TestStack.relationship(name, to: entities[b]!, toMany: true, ordered: ordered)
            let backward = TestStack.relationship(inverse, to: entities[a]!, toMany: true, ordered: ordered)
            TestStack.pair(forward, backward)
            entities[a]!.properties.append(forward)
            entities[b]!.properties.append(backward)
        }
        manyToMany("SystemMessage", "users", "User", "systemMessages")
        manyToMany("Reaction", "users", "User", "reactions")
        manyToMany("SystemMessage", "addedUsers", "User", "showingUserAdded")
        manyToMany("SystemMessage", "removedUsers", "User", "showingUserRemoved")
        manyToMany("SystemMessage", "clients", "UserClient", "addedOrRemovedInSystemMessages")
        manyToMany("UserClient", "trustedClients", "UserClient", "trustedByClients")
        manyToMany("UserClient", "ignoredClients", "UserClient", "ignoredByClients")
        manyToMany("Conversation", "labels", "Label", "conversations")
        manyToMany("Action", "role", "Role", "actions")
        manyToMany("Conversation", "lastServerSyncedActiveParticipants", "User", "lastServerSyncedActiveConversations",
                   ordered: true)
        for entity in entities.values {
            entity.properties.sort { $0.name.lowercased() < $1.name.lowercased() }
        }
        let model = NSManagedObjectModel()
        model.entities = names.sorted { $0.lowercased() < $1.lowercased() }.map { entities[$0]! }
        return model
    }

    /// The join tables as the 2.78.0 store holds them (join-tables.md), name → key columns, then order columns.
    static let storedAt278: [String: [String]] = [
        "Z_22TRUSTEDCLIENTS": ["Z_22TRUSTEDBYCLIENTS", "Z_22TRUSTEDCLIENTS"],
        "Z_22IGNOREDCLIENTS": ["Z_22IGNOREDBYCLIENTS", "Z_22IGNOREDCLIENTS"],
        "Z_13ADDEDUSERS": ["Z_13SHOWINGUSERADDED", "Z_21ADDEDUSERS"],
        "Z_13USERS": ["Z_13SYSTEMMESSAGES", "Z_21USERS1"],
        "Z_13REMOVEDUSERS": ["Z_13SHOWINGUSERREMOVED", "Z_21REMOVEDUSERS"],
        "Z_13CLIENTS": ["Z_13ADDEDORREMOVEDINSYSTEMMESSAGES", "Z_22CLIENTS"],
        "Z_17USERS": ["Z_17REACTIONS", "Z_21USERS"],
        "Z_1ROLE": ["Z_1ACTIONS", "Z_18ROLE"],
        "Z_4LABELS": ["Z_4CONVERSATIONS", "Z_6LABELS"],
        "Z_4LASTSERVERSYNCEDACTIVEPARTICIPANTS": [
            "Z_4LASTSERVERSYNCEDACTIVECONVERSATIONS", "Z_21LASTSERVERSYNCEDACTIVEPARTICIPANTS",
            "Z_FOK_4LASTSERVERSYNCEDACTIVECONVERSATIONS", "Z_FOK_21LASTSERVERSYNCEDACTIVEPARTICIPANTS",
        ],
    ]

    /// Same-named relationships towards one entity (SystemMessage.users and
    /// Reaction.users) take suffixes in model order, so Reaction's column is
    /// the plain one; reflexive pairs and ordered pairs as the store has them.
    @Test func computedNamesAreTheOnesAppleWroteAtVersion278() throws {
        let schema = try SQLiteSchema(model: Self.messagingModel())
        #expect(schema.entity(named: "SystemMessage")?.number == 13)
        #expect(schema.entity(named: "UserClient")?.number == 22)
        let joinTables = schema.tables.filter { $0.name.hasPrefix("Z_") }
        let computed = Dictionary(uniqueKeysWithValues: joinTables.map { ($0.name, $0.columns.map(\.name)) })
        #expect(computed == Self.storedAt278)
    }

    /// Model 2.101.0's file names the reflexive table after the other side
    /// (`Z_24TRUSTEDBYCLIENTS`); computing gives `Z_24TRUSTEDCLIENTS`, so the
    /// store must find the table the file has. Built here by renaming the
    /// table of a store we wrote, then read back through the relationship.
    @Test func aReflexiveTableNamedAfterTheOtherSideIsFoundInTheFile() throws {
        let url = TestStack.temporaryStoreURL()
        try writeTrustedClients(url, model: Self.messagingModel(userClientNumber: 24))
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "ALTER TABLE Z_24TRUSTEDCLIENTS RENAME TO Z_24TRUSTEDBYCLIENTS")
        }
        let context = try open(url, model: Self.messagingModel(userClientNumber: 24))
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        #expect(store.mapping.schema.storage(ofRelationship: "trustedClients", ofEntity: "UserClient")
            == .joinTable(.init(table: "Z_24TRUSTEDBYCLIENTS", source: "Z_24TRUSTEDBYCLIENTS",
                                destination: "Z_24TRUSTEDCLIENTS", order: nil)))
        try context.performAndWait {
            let clients = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "UserClient"))
            let trusting = try #require(clients.first { ($0.value(forKey: "trustedClients") as? NSSet)?.count == 2 })
            let trusted = (trusting.value(forKey: "trustedClients") as? NSSet)?.allObjects as? [NSManagedObject] ?? []
            #expect(trusted.allSatisfy { ($0.value(forKey: "trustedByClients") as? NSSet)?.contains(trusting) == true })
            // Saving writes to the file's table too.
            let other = try #require(trusted.first)
            other.setValue(NSSet(object: trusting), forKey: "trustedClients")
            try context.save()
        }
        let rows = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_24TRUSTEDBYCLIENTS")
        }
        #expect(rows == 3)
    }

    /// A column named with a suffix the computed layout does not give (a
    /// table a later migration added takes the next free suffix) is found by
    /// its relationship's name, the inverse's column telling the tables apart.
    @Test func aSuffixFromAnotherHistoryIsFoundByTheColumnsStem() throws {
        let url = TestStack.temporaryStoreURL()
        try writeTrustedClients(url, model: Self.messagingModel())
        // Swap the suffixes of the two USERS columns, as a store written in the other order has them.
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "ALTER TABLE Z_13USERS RENAME COLUMN Z_21USERS1 TO Z_21USERSX")
            try db.execute(sql: "ALTER TABLE Z_17USERS RENAME COLUMN Z_21USERS TO Z_21USERS1")
            try db.execute(sql: "ALTER TABLE Z_13USERS RENAME COLUMN Z_21USERSX TO Z_21USERS")
        }
        let context = try open(url, model: Self.messagingModel())
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        #expect(store.mapping.schema.storage(ofRelationship: "users", ofEntity: "Reaction")
            == .joinTable(.init(table: "Z_17USERS", source: "Z_17REACTIONS", destination: "Z_21USERS1", order: nil)))
        #expect(store.mapping.schema.storage(ofRelationship: "users", ofEntity: "SystemMessage")
            == .joinTable(.init(table: "Z_13USERS", source: "Z_13SYSTEMMESSAGES", destination: "Z_21USERS",
                                order: nil)))
    }

    /// Opening a store builds the mapping from the model before the file is
    /// read; a file holding every join table where that mapping has it keeps
    /// it (no second build), one holding a pair elsewhere gets a mapping of
    /// its own that reads that pair from the file's table.
    @Test func theModelsMappingIsKeptWhenTheFileHoldsItsJoinTables() throws {
        let url = TestStack.temporaryStoreURL()
        let model = Self.messagingModel(userClientNumber: 24)
        try writeTrustedClients(url, model: model)
        let mapping = try SQLiteMapping(model: model, configuration: nil)
        let reread = {
            try DatabaseQueue(path: url.path).read { try mapping.reading($0, model: model, configuration: nil) }
        }
        #expect(try reread() === mapping)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "ALTER TABLE Z_24TRUSTEDCLIENTS RENAME TO Z_24TRUSTEDBYCLIENTS")
        }
        let reading = try reread()
        #expect(reading !== mapping)
        func table(_ mapping: SQLiteMapping) -> String? {
            guard case .joinTable(let join) = mapping.schema.storage(ofRelationship: "trustedClients",
                                                                     ofEntity: "UserClient") else { return nil }
            return join.table
        }
        #expect(table(reading) == "Z_24TRUSTEDBYCLIENTS")
        #expect(table(mapping) == "Z_24TRUSTEDCLIENTS")
    }

    /// A file without the table of a pair, or with an ordered pair's table
    /// lacking its order columns, does not fit the model: 134020, no crash.
    @Test func aPairTheFileDoesNotHoldRefusesTheStore() throws {
        let dropOrder = "ALTER TABLE Z_4LASTSERVERSYNCEDACTIVEPARTICIPANTS "
            + "DROP COLUMN Z_FOK_4LASTSERVERSYNCEDACTIVECONVERSATIONS"
        for damage in ["DROP TABLE Z_17USERS", dropOrder] {
            let url = TestStack.temporaryStoreURL()
            try writeTrustedClients(url, model: Self.messagingModel())
            try DatabaseQueue(path: url.path).write { try $0.execute(sql: damage) }
            let error = #expect(throws: NSError.self) { _ = try open(url, model: Self.messagingModel()) }
            #expect(error?.code == NSPersistentStoreIncompatibleSchemaError, "\(damage)")
        }
    }

    /// Three UserClients, the first trusting the other two; saved and closed.
    private func writeTrustedClients(_ url: URL, model: NSManagedObjectModel) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let clients = (0..<3).map { _ in
                NSEntityDescription.insertNewObject(forEntityName: "UserClient", into: context)
            }
            clients[0].setValue(NSSet(array: [clients[1], clients[2]]), forKey: "trustedClients")
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    private func open(_ url: URL, model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
}
