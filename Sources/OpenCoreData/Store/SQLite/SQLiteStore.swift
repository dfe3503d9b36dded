import GRDB

/// The SQLite store (`NSSQLiteStoreType`): records in a file laid out as Core
/// Data lays it out (``SQLiteSchema``), so stores move between Apple
/// platforms and Linux.
///
/// The file is open on one GRDB `DatabaseQueue` in WAL mode
/// (``SQLiteConnection``), each save is one write transaction, and fetches
/// run as SQL with bound parameters. The coordinator calls the record
/// operations one at a time, so the store keeps no lock of its own, and
/// reads and writes share the connection (``readOneQuery(_:)``); a
/// read-only pool opened beside it with the first query generation keeps
/// generations' snapshots.
final class SQLiteStore: NSPersistentStore, @unchecked Sendable {
    override var type: String { NSSQLiteStoreType }

    /// The connection; set by `loadMetadata()`.
    private(set) var database: DatabaseQueue!
    /// The read-only pool whose snapshots keep query generations, opened with the first; nil before, and
    /// for a file not in WAL mode.
    private var snapshotPool: DatabasePool?
    private var lookedForSnapshotPool = false
    /// Table and column names of every entity; set by `loadMetadata()`.
    private(set) var mapping: SQLiteMapping!
    /// Where values of attributes allowing external storage live as files; set by `loadMetadata()`.
    private(set) var externalData: SQLiteExternalData!
    /// `metadataChanges` when the metadata was last read from or written to
    /// Z_METADATA, to write it again only when it was set since; -1 for never.
    private var writtenMetadataChanges = -1
    /// Records of a batch read ahead with a fault of the last batched fetch,
    /// waiting for their own faults to fire: each is handed out once, and a
    /// save or the next fetch drops them, so they are never older than the
    /// read.
    // Release builds skip the exclusivity checks of these (~76 instructions each access, two a fault fired):
    // the store is used inside its coordinator's store access, one operation at a time.
    #if DEBUG
    private var prefetched: [ObjectKey: StoreSnapshot] = [:]
    private var batches = SQLiteFaultBatches()
    #else
    @exclusivity(unchecked) private var prefetched: [ObjectKey: StoreSnapshot] = [:]
    @exclusivity(unchecked) private var batches = SQLiteFaultBatches()
    #endif
    /// The SQL debug log, nil when it is off; set by `loadMetadata()`.
    private(set) var debugLog: SQLiteDebugLog?
    /// The persistent history (History/SQLiteHistory.swift); nil when the store neither records nor holds one.
    var history: SQLiteHistory?
    /// Posts remote-change notifications (History/SQLiteRemoteChangeWatcher.swift) when the options ask for them.
    var remoteChangeWatcher: SQLiteRemoteChangeWatcher?

    /// The record reads' SQL and column layouts, per table.
    let recordQueries = SQLiteRecordQueries()

    /// How many `SELECT … WHERE Z_PK IN (…)` record reads the store has run
    /// (one per table and chunk of keys); for tests of batched loading.
    var recordQueryCount = 0
    /// How many fetches sorted their records in memory (``SQLiteRecordSort``)
    /// instead of by SQL; for tests of which way a fetch went.
    var recordSortCount = 0
    /// How many fetches found their rows, sorted by the bytes of `compare:`
    /// strings, out of `compare:` order and sorted again by the collation
    /// (``SQLiteBytewiseOrderCheck``); for tests of which way a fetch went.
    var bytewiseSortFallbackCount = 0
    /// How many to-many reads (`destinations(of:via:)` queries, one per chunk
    /// of owners) the store has run; for tests of to-many faults.
    var toManyQueryCount = 0

    /// How many records read ahead wait for their faults (bounded by one batch).
    var waitingRecordCount: Int { prefetched.count }

    override func loadMetadata() throws {
        guard let coordinator = persistentStoreCoordinator, let url else {
            throw NSError.coreData(NSPersistentStoreOpenError, "An SQLite store needs a coordinator and a file URL.")
        }
        let model = coordinator.managedObjectModel
        let configuration = configurationName == NSManagedObjectModel.defaultConfigurationName ? nil : configurationName
        // Built before the file is opened so that a model SQLite cannot hold fails first, whatever the file;
        // once per model and configuration, as the model is frozen. The key is built without
        // `String(describing:)`, whose first use in a process looks up conformances (~300k instructions).
        mapping = try model.derived(configuration.map { "SQLiteMapping \($0)" } ?? "SQLiteMapping") {
            try SQLiteMapping(model: model, configuration: configuration)
        }
        let isInMemory = SQLiteConnection.isInMemory(url)
        externalData = SQLiteExternalData(storeURL: url, isInMemory: isInMemory)
        debugLog = SQLiteDebugLog(store: url)
        database = try SQLiteConnection.open(at: url, isInMemory: isInMemory, options: options, readOnly: isReadOnly,
                                             debugLog: debugLog)
        let ignoresVersions = (options?[NSIgnorePersistentStoreVersioningOption] as? Bool) == true
        // Whether the file holds persistent history, learnt in the transaction that reads the metadata.
        var holdsHistory: Bool?
        // Takes `existing` as the store's metadata once the file holds the model's version: the mapping reads
        // the file's many-to-many tables, and the checks compare the file with the model (the version hashes
        // unless `hashesMatch` says they were compared).
        func adopt(_ existing: [String: Any], _ db: Database, hashesMatch: Bool) throws {
            mapping = try mapping.reading(db, model: model, configuration: configuration)
            metadata = existing
            if ignoresVersions {
                metadata[NSStoreModelVersionHashesKey] = model.entityVersionHashesByName
            } else {
                if !hashesMatch {
                    try SQLiteStoreSetup.checkCompatible(existing, model: model, configuration: configuration, url: url)
                }
                writtenMetadataChanges = metadataChanges
            }
            try SQLiteStoreSetup.checkLayout(db, mapping: mapping, url: url)
            holdsHistory = SQLiteHistoryTables.exist(db)
        }
        try translatingErrors {
            // One read transaction when the file needs no migration (each costs a BEGIN and a COMMIT).
            var adopted = false
            if var existing = try readInTransaction({ db -> [String: Any]? in
                guard let existing = try SQLiteMetadata.read(db) else { return nil }
                let hashes = (existing[NSStoreModelVersionHashesKey] as? [String: Any]) ?? [:]
                if ignoresVersions || model.differingEntities(forConfigurationName: configuration,
                                                              storeHashes: hashes)?.isEmpty != false {
                    try adopt(existing, db, hashesMatch: true)
                    adopted = true
                }
                return existing
            }) {
                guard !adopted else { return }
                if let migrated = try SQLiteStoreMigration.migrateIfNeeded(
                    existing, database: database, model: model, configuration: configuration, url: url,
                    options: options, readOnly: isReadOnly) {
                    existing = migrated
                }
                try readInTransaction { db in try adopt(existing, db, hashesMatch: false) }
                return
            }
            guard try !readInTransaction(SQLiteStoreSetup.hasTables) else {
                throw NSError.coreData(NSPersistentStoreInvalidTypeError, "\(url.lastPathComponent) is an SQLite file but not a Core Data store.",
                                       userInfo: [NSFilePathErrorKey: url.path])
            }
            guard !isReadOnly else {
                throw NSError.coreData(NSPersistentStoreOpenError, "The read-only store at \(url.path) is empty.")
            }
            metadata = SQLiteStoreSetup.newMetadata(uuid: identifier ?? UUID().uuidString, model: model, mapping: mapping)
            try SQLiteStoreSetup.create(database, mapping: mapping, metadata: metadata)
            writtenMetadataChanges = metadataChanges
        }
        try openHistory(holdsHistory: holdsHistory)
    }


    // MARK: Record operations

    override func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        try refuseIfReadOnly()
        guard let mapped = mapping.entity(entity) else { throw notHeld(entity) }
        // Core Data keeps the hierarchy's high-water mark on the root's row (sub-entities keep 0).
        guard mapped.number > 0 else { throw notHeld(entity) }
        let root = rootNumber(of: entity)
        return try translatingErrors {
            try database.write { db in
                let last = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [last + Int64(count), root])
                return (0..<Int64(count)).map { last + 1 + $0 }
            }
        }
    }

    override func snapshots(for ids: [NSManagedObjectID]) throws -> [ObjectKey: StoreSnapshot] {
        if let pinned = Self.pinnedReads?[ObjectIdentifier(self)] {
            // The read-ahead batches hold current rows: a pinned read takes exactly what it asks for.
            let wanted = ids.filter { $0.storeIdentifier == identifier && $0.primaryKey != nil }
            return try translatingErrors {
                try pinned.read { try SQLiteRecordReader(store: self, db: $0).snapshots(for: wanted) }
            }
        }
        // Reserving runs unspecialized (~700 to 1,100 instructions a call): not for a fault fired alone.
        var found: [ObjectKey: StoreSnapshot] = [:]
        if ids.count > 1 { found.reserveCapacity(ids.count) }
        var missing: [NSManagedObjectID] = []
        for id in ids where id.storeIdentifier == identifier && id.primaryKey != nil {
            if let snapshot = prefetched.removeValue(forKey: ObjectKey(id)) { found[id] = snapshot } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return found }
        let wanted = batches.widened(missing)
        let read = { (db: Database) in try SQLiteRecordReader(store: self, db: db).snapshots(for: wanted) }
        var loaded = try translatingErrors {
            try SQLiteRecordReader.readsInOneQuery(wanted, mapping: mapping)
                ? readOneQuery(read) : readInTransaction(read)
        }
        debugLog?.fulfilledFromDatabase(missing)
        // Nothing came from the read-ahead and nothing was read ahead (a fault fired alone): the read's own
        // dictionary holds exactly the records asked for (moving them into `found` cost ~800 instructions).
        if found.isEmpty, wanted.count == missing.count { return loaded }
        for id in missing { found[id] = loaded.removeValue(forKey: ObjectKey(id)) }
        // The rest of the batch waits for its own faults; it replaces the previous batch.
        if wanted.count > missing.count { prefetched = loaded }
        return found
    }

    /// The records read by key alone, with no ID made, unless `readsByKey(_:)` says otherwise.
    override func snapshots(of family: ObjectIDFamily, primaryKeys: [Int64]) throws -> [StoreSnapshot] {
        guard readsByKey(family) else { return try super.snapshots(of: family, primaryKeys: primaryKeys) }
        let read = { (db: Database) in
            try SQLiteRecordReader(store: self, db: db).snapshots(of: family, primaryKeys: primaryKeys)
        }
        let found = try translatingErrors {
            try primaryKeys.count <= SQLiteKeyList.maximumCount ? readOneQuery(read) : readInTransaction(read)
        }
        debugLog?.fulfilledFromDatabase(primaryKeys.lazy.map { NSManagedObjectID(family: family, key: .permanent($0)) })
        return found
    }

    /// `snapshots(of:primaryKeys:)` for a fault fired alone: one record read without the dictionaries of
    /// `snapshots(for:)` (~1,000 instructions of a fault fired alone).
    override func snapshots(of family: ObjectIDFamily, primaryKey: Int64) throws -> [StoreSnapshot] {
        guard readsByKey(family) else { return try super.snapshots(of: family, primaryKey: primaryKey) }
        let found = try translatingErrors {
            try readOneQuery { db in
                try SQLiteRecordReader(store: self, db: db).snapshots(of: family, primaryKey: primaryKey)
            }
        }
        debugLog?.fulfilledFromDatabase([NSManagedObjectID(family: family, key: .permanent(primaryKey))])
        return found
    }

    /// Whether records of `family` are read by key here: it is this store's, and no record read ahead or
    /// batched fetch's read-ahead has a say (their reads go by ID). A pinned generation's reads need no
    /// exception: `readOneQuery` and `readInTransaction` read its snapshot.
    private func readsByKey(_ family: ObjectIDFamily) -> Bool {
        prefetched.isEmpty && batches.isEmpty && family.storeIdentifier == identifier
    }

    override func destinations(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription) throws
        -> [ObjectKey: [NSManagedObjectID]] {
        try destinations(of: ids, via: relationship, reading: .keys).destinations
    }

    /// One query per 512 owners reads the destinations and their records.
    override func destinationsWithRecords(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription)
        throws -> (destinations: [ObjectKey: [NSManagedObjectID]], records: [StoreSnapshot]) {
        let read = try destinations(of: ids, via: relationship, reading: .records)
        return (read.destinations, read.records)
    }

    /// One query per 512 owners reads the destinations and their rows' versions.
    override func destinationsWithVersions(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription)
        throws -> (destinations: [ObjectKey: [NSManagedObjectID]], versions: [ObjectKey: [Int64]])? {
        let read = try destinations(of: ids, via: relationship, reading: .versions)
        return (read.destinations, read.versions)
    }

    private func destinations(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription,
                              reading: SQLiteRecordReader.DestinationColumns) throws
        -> (destinations: [ObjectKey: [NSManagedObjectID]], records: [StoreSnapshot], versions: [ObjectKey: [Int64]]) {
        let owners = ids.filter { $0.storeIdentifier == identifier && $0.primaryKey != nil }
        guard !owners.isEmpty else { return ([:], [], [:]) }
        let keys = owners.map { $0.primaryKey! }
        let read = { (db: Database) in
            try SQLiteRecordReader(store: self, db: db).destinations(of: keys, via: relationship, reading: reading)
        }
        let byKey = try translatingErrors {
            try owners.count <= SQLiteKeyList.maximumCount ? readOneQuery(read) : readInTransaction(read)
        }
        var found: [ObjectKey: [NSManagedObjectID]] = [:], foundVersions: [ObjectKey: [Int64]] = [:]
        for owner in owners {
            if let destinations = byKey.destinations[owner.primaryKey!] { found[owner] = destinations }
            if let versions = byKey.versions[owner.primaryKey!] { foundVersions[owner] = versions }
        }
        return (found, byKey.records, foundVersions)
    }

    override func execute(_ fetch: StoreFetch) throws -> StoreFetchResult {
        guard Self.pinnedReads?[ObjectIdentifier(self)] == nil else {
            return try translatingErrors { try SQLiteFetchExecution(store: self, fetch: fetch).run() }
        }
        prefetched = [:]
        let start = debugLog.map { _ in SQLiteDebugLog.now() }
        let result = try translatingErrors { try SQLiteFetchExecution(store: self, fetch: fetch).run() }
        if let debugLog, let start {
            debugLog.fetched(entity: fetch.entity.name, rows: result.ids.count, seconds: SQLiteDebugLog.now() - start)
        }
        if fetch.request.resultType == .managedObjectResultType {
            batches.remember(fetch.request.fetchBatchSize > 0 ? Array(result.ids) : [], batchSize: fetch.request.fetchBatchSize)
        }
        return result
    }

    override func count(_ fetch: StoreFetch) throws -> Int {
        try translatingErrors { try SQLiteFetchExecution(store: self, fetch: fetch).count() }
    }

    override func save(_ changes: StoreChangeSet) throws {
        try refuseIfReadOnly()
        let metadataNow = metadataChanges, metadataChanged = metadataNow != writtenMetadataChanges
        guard !changes.isEmpty || metadataChanged else { return }
        prefetched = [:]
        batches.forget()
        let files = SQLiteExternalData.Save(storage: externalData)
        do {
            try translatingErrors {
                try database.write { db in
                    history?.willSave(changes)
                    let stale = try Self.refusingDuplicates {
                        try SQLiteRecordWriter(mapping: mapping, db: db, files: files).apply(changes)
                    }
                    // Thrown to roll the transaction back; the current records are read after it.
                    guard stale.isEmpty else { throw StaleRecords(ids: stale) }
                    try history?.recorder?.finish(db)
                    if metadataChanged { try SQLiteMetadata.write(metadata, db) }
                }
            }
        } catch let stale as StaleRecords {
            files.rolledBack()
            let current = try translatingErrors {
                try readInTransaction { try SQLiteRecordReader(store: self, db: $0).snapshots(for: stale.ids) }
            }
            throw StoreVersionConflict(records: stale.ids.map { id in
                .init(objectID: id, persisted: current[ObjectKey(id)])
            })
        } catch {
            files.rolledBack()
            throw error
        }
        files.committed()
        writtenMetadataChanges = metadataNow
    }

    /// A batch update of constants whose selection SQL expresses in full is
    /// one transaction: the keys are selected when the result lists them,
    /// then one `UPDATE … SET …, Z_OPT = Z_OPT + 1` runs, on the selection's
    /// condition when it needs no join or window, otherwise on the keys the
    /// selection's query returns (`WHERE Z_PK IN (SELECT …)`: SQLite builds a
    /// temporary index of the keys, then finds each row again, about twice
    /// the work of the condition). A count or status result reads no keys:
    /// `sqlite3_changes` counts the rows. Anything else
    /// (expressions, a selection partly in memory, external data) takes the
    /// general path of reading and saving the records.
    override func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult {
        try refuseIfReadOnly()
        let execution = SQLiteFetchExecution(store: self, fetch: StoreFetch(entity: update.entity,
                                                                             request: update.fetchRequest,
                                                                             appliesWindow: true))
        guard update.isConstant, !update.values.contains(where: { $0.attribute.allowsExternalBinaryDataStorage }),
              let entity = mapping.entity(update.entity), let selection = execution.keySelection()
        else { return try super.executeBatchUpdate(update) }
        var assignments = ["Z_OPT = Z_OPT + 1"], values: [DatabaseValue] = []
        for (attribute, value) in update.values {
            guard case .constant(let constant) = value,
                  let column = entity.attributes.first(where: { $0.attribute.name == attribute.name })?.column
            else { continue }
            assignments.append("\(column) = ?")
            // No attribute here allows external storage (guarded above), so the closure is never called.
            values.append(try SQLiteValueCoding.databaseValue(constant, for: attribute) { _ in .null })
        }
        let set = "UPDATE \(entity.table) AS t0 SET \(assignments.joined(separator: ", "))"
        let statement = execution.tableCondition().map { condition in
            (sql: "\(set) WHERE \(condition.condition)", arguments: values + condition.arguments)
        } ?? (sql: "\(set) WHERE Z_PK IN (SELECT Z_PK FROM (\(selection.sql)))",
              arguments: values + selection.arguments)
        prefetched = [:]
        batches.forget()
        return try translatingErrors {
            try database.write { db in
                history?.willWrite(author: update.author, contextName: update.contextName)
                let ids = update.wantsIDs ? try selectedIDs(selection, in: db) : nil
                try db.execute(sql: statement.sql, arguments: StatementArguments(statement.arguments))
                let count = db.changesCount
                try history?.recorder?.finish(db)
                return StoreBatchUpdateResult(count: count, ids: ids)
            }
        }
    }

    /// The IDs of the records `selection` (a query of `Z_PK, Z_ENT`) returns.
    private func selectedIDs(_ selection: (sql: String, arguments: [DatabaseValue]), in db: Database) throws
        -> [NSManagedObjectID] {
        var ids: [NSManagedObjectID] = []
        let statement = try db.makeStatement(sql: selection.sql)
        try statement.bind(selection.arguments)
        let columns = SQLiteColumnReader(statement: statement.sqliteStatement)
        try statement.forEachRow {
            if let pk = columns.integer(0), let number = columns.integer(1).flatMap({ Int(exactly: $0) }),
               let id = objectID(entityNumber: number, primaryKey: pk) { ids.append(id) }
        }
        return ids
    }

    /// A batch delete (``SQLiteBatchDelete``) in one write transaction:
    /// nothing of it lands when a delete rule refuses it. A selection SQL
    /// can't express in full is read first and deleted by key.
    override func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult {
        try refuseIfReadOnly()
        guard let entity = mapping.entity(delete.entity) else { return StoreBatchDeleteResult(count: 0, ids: []) }
        let selection: SQLiteBatchDelete.Selection
        let execution = SQLiteFetchExecution(store: self, fetch: delete.fetch)
        if let ids = delete.objectIDs {
            selection = .keys(ids.filter { $0.storeIdentifier == identifier }.compactMap(\.primaryKey))
        } else if let condition = execution.tableCondition() {
            selection = .condition(condition.condition, condition.arguments)
        } else if let keys = execution.keySelection() {
            selection = .keySelection(keys.sql, keys.arguments)
        } else {
            selection = .keys(try execute(delete.fetch).ids.compactMap(\.primaryKey))
        }
        prefetched = [:]
        batches.forget()
        let files = SQLiteExternalData.Save(storage: externalData)
        let deleted: (count: Int, keys: [(pk: Int64, entityNumber: Int)])
        do {
            deleted = try translatingErrors {
                try database.write { db in
                    history?.willWrite(author: delete.author, contextName: delete.contextName)
                    let deleted = try SQLiteBatchDelete(mapping: mapping, db: db, files: files)
                        .run(entity, selection, wantsKeys: delete.wantsIDs)
                    try history?.recorder?.finish(db)
                    return deleted
                }
            }
        } catch {
            files.rolledBack()
            throw error
        }
        files.committed()
        let ids = delete.wantsIDs
            ? deleted.keys.compactMap { objectID(entityNumber: $0.entityNumber, primaryKey: $0.pk) } : nil
        return StoreBatchDeleteResult(count: deleted.count, ids: ids)
    }

    /// A batch insert (``SQLiteBatchInsert``) in one write transaction, with
    /// the hierarchy's `Z_MAX` raised in it: a failing record leaves nothing.
    override func executeBatchInsert(_ insert: StoreBatchInsert) throws -> StoreBatchInsertResult {
        try refuseIfReadOnly()
        guard let entity = mapping.entity(insert.entity), entity.number > 0 else { throw notHeld(insert.entity) }
        let root = rootNumber(of: insert.entity)
        prefetched = [:]
        batches.forget()
        let files = SQLiteExternalData.Save(storage: externalData)
        let inserted: (count: Int, keys: [Int64])
        do {
            inserted = try translatingErrors {
                try database.write { db in
                    history?.willWrite(author: insert.author, contextName: insert.contextName)
                    let inserted = try SQLiteBatchInsert(mapping: mapping, db: db, files: files)
                        .run(entity, root: root, insert)
                    try history?.recorder?.finish(db)
                    return inserted
                }
            }
        } catch {
            files.rolledBack()
            throw error
        }
        files.committed()
        let ids = insert.wantsIDs ? inserted.keys.map { objectID(for: insert.entity, primaryKey: $0) } : nil
        return StoreBatchInsertResult(count: inserted.count, ids: ids)
    }

    // MARK: Helpers

    /// The permanent ID of the row `pk` whose `Z_ENT` is `entityNumber`.
    func objectID(entityNumber: Int, primaryKey pk: Int64) -> NSManagedObjectID? {
        mapping.entity(number: entityNumber).map { objectID(for: $0, primaryKey: pk) }
    }

    private func rootNumber(of entity: NSEntityDescription) -> Int {
        var root = entity
        while let parent = root.superentity, mapping.entity(parent) != nil { root = parent }
        return mapping.entity(root)?.number ?? 0
    }

    private func refuseIfReadOnly() throws {
        if isReadOnly {
            throw NSError.coreData(NSPersistentStoreSaveError, "The store at \(url?.path ?? "") is read-only.")
        }
    }

    /// The records a save found changed or gone since the context read them.
    private struct StaleRecords: Error {
        let ids: [NSManagedObjectID]
    }

    private func notHeld(_ entity: NSEntityDescription) -> NSError {
        NSError.coreData(NSPersistentStoreSaveError, "The SQLite store has no table for entity \(entity.name ?? "").")
    }

    /// The read transactions of the query generation the current read is pinned to, by store identity.
    @TaskLocal static var pinnedReads: [ObjectIdentifier: DatabaseSnapshot]?

    /// Runs `body`, which reads records with at most one query (anything else
    /// it asks, such as the file's size, need not agree with that query's
    /// state), on the writer connection outside a transaction (or in the
    /// pinned generation's snapshot). A lone SELECT is a transaction of its
    /// own in SQLite, so it sees one state of the file; the BEGIN and COMMIT
    /// of a read transaction cost ~36k instructions.
    ///
    /// Why no reader connection of its own: the coordinator runs its stores'
    /// operations one at a time (`performStoreAccess`), so the connection is
    /// idle whenever a record operation reads, and in WAL mode a read on it
    /// waits for no other connection. A `DatabasePool` reader cost ~33k
    /// instructions more per read (taking it from the pool instantiates a
    /// generic key path each time, and it checks the schema version), half
    /// of firing a fault alone.
    func readOneQuery<T>(_ body: (Database) throws -> T) throws -> T {
        if let pinned = Self.pinnedReads?[ObjectIdentifier(self)] { return try pinned.read(body) }
        return try database.unsafeReentrantWrite(body)
    }

    /// `body` in one read transaction: on the pinned generation's snapshot,
    /// or on the writer connection for the reasons `readOneQuery(_:)` gives.
    /// Inside a write of this store (none of its record operations reads
    /// there today) `body` runs in that write's transaction.
    func readInTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        if let pinned = Self.pinnedReads?[ObjectIdentifier(self)] { return try pinned.read(body) }
        return try database.unsafeReentrantWrite { db in
            guard !db.isInsideTransaction else { return try body(db) }
            var result: T?
            try db.inTransaction(.deferred) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// A read transaction kept open on the store's current data, for a query generation; nil when the store is
    /// not a WAL database (an in-memory SQLite store, another journal mode), which cannot keep one.
    func makeGenerationSnapshot() throws -> DatabaseSnapshot? {
        try translatingErrors {
            if !lookedForSnapshotPool {
                snapshotPool = try SQLiteConnection.snapshotPool(beside: database)
                lookedForSnapshotPool = true
            }
            return try snapshotPool?.makeSnapshot()
        }
    }

    /// `body`, with a unique index's refusal as a `StoreConstraintViolation` for the context to resolve.
    private static func refusingDuplicates<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StoreConstraintViolation(message: "SQLite refused a duplicate: \(error.message ?? "\(error)")")
        }
    }

    /// Runs `body`, turning GRDB errors into NSErrors (NSSQLiteError, 134180,
    /// or NSPersistentStoreTimeoutError when the database stayed locked; a
    /// value GRDB could not convert, which only a damaged file holds, into
    /// NSPersistentStoreOpenError, 134080).
    func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            let busy = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
            throw NSError.coreData(busy ? NSPersistentStoreTimeoutError : NSSQLiteError,
                                   "SQLite error at \(url?.lastPathComponent ?? "the store"): \(error.message ?? "\(error)")",
                                   userInfo: [NSSQLiteErrorDomain: Int(error.resultCode.rawValue), NSUnderlyingErrorKey: error as NSError])
        } catch let error as RowDecodingError {
            throw NSError.coreData(NSPersistentStoreOpenError, "The store at \(url?.lastPathComponent ?? "the store") holds a value Core Data does not write there: \(error)",
                                   userInfo: url.map { [NSFilePathErrorKey: $0.path] } ?? [:])
        }
    }
}
