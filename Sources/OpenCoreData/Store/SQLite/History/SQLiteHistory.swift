import GRDB

/// An SQLite store's persistent history: readable whenever the file has the
/// history tables, recorded while the store was added with
/// `NSPersistentHistoryTrackingKey` (then the tables, triggers and functions
/// are set up on the writing connection when the store opens).
final class SQLiteHistory: @unchecked Sendable {
    /// How `ACHANGE` indexes each entity's properties, by entity number.
    let layouts: [Int: SQLiteHistoryLayout]
    /// The triggers' Swift side; nil when the store does not record history.
    let recorder: SQLiteHistoryRecorder?
    private let mapping: SQLiteMapping

    private init(mapping: SQLiteMapping, recorder: SQLiteHistoryRecorder?) {
        self.mapping = mapping
        self.recorder = recorder
        var layouts: [Int: SQLiteHistoryLayout] = [:]
        for entity in mapping.schema.entities {
            if let description = mapping.entity(number: entity.number), let mapped = mapping.entity(description) {
                layouts[entity.number] = SQLiteHistoryLayout(mapped)
            }
        }
        self.layouts = layouts
    }

    /// The history of `store`, set up for recording when `tracking`; nil when
    /// the store neither records nor holds history. One transaction to create
    /// the tables on the first open, and one statement per trigger. `holdsHistory`
    /// says whether the file has the tables, when the caller knows.
    static func open(_ database: any DatabaseWriter, mapping: SQLiteMapping, tracking: Bool,
                     readOnly: Bool, holdsHistory: Bool?) throws -> SQLiteHistory? {
        guard tracking, !readOnly else {
            let exists = holdsHistory ?? database.writeWithoutTransaction(SQLiteHistoryTables.exist)
            return exists ? SQLiteHistory(mapping: mapping, recorder: nil) : nil
        }
        let history = SQLiteHistory(mapping: mapping, recorder: SQLiteHistoryRecorder())
        let tombstones = history.layouts.values.map(\.tombstones.count).max() ?? 0
        try database.writeWithoutTransaction { db in
            try db.inTransaction {
                try SQLiteHistoryTables.create(db, tombstones: tombstones)
                return .commit
            }
            history.recorder?.register(in: db)
            for statement in SQLiteHistoryTriggers.statements(mapping: mapping, layouts: history.layouts) {
                try db.execute(sql: statement)
            }
        }
        return history
    }

    /// Whether `options` ask for history (`NSPersistentHistoryTrackingKey` true).
    static func isRequested(_ options: [AnyHashable: Any]?) -> Bool {
        let value = options?[NSPersistentHistoryTrackingKey]
        return (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
    }

    /// Tells the triggers who makes a batch request's write (call inside its write transaction).
    func willWrite(author: String?, contextName: String?) {
        recorder?.begin(SQLiteHistoryRecorder.Save(author: author, contextName: contextName))
    }

    /// Tells the triggers who makes the save of `changes` (call inside its
    /// write transaction), with the to-many relationships each updated record
    /// changed: their data is not in the row, so the update trigger cannot see them.
    func willSave(_ changes: StoreChangeSet) {
        guard let recorder else { return }
        var save = SQLiteHistoryRecorder.Save(author: changes.author, contextName: changes.contextName)
        for snapshot in changes.updated {
            guard let slots = snapshot.changedSlots, let pk = snapshot.objectID.primaryKey,
                  let entity = mapping.entity(snapshot.objectID.entity), let layout = layouts[entity.number]
            else { continue }
            var names: [String] = []
            for ((relationship, storage), slot) in zip(entity.relationships, entity.relationshipSlots)
            where slots.contains(slot) {
                if case .foreignKey = storage { continue }
                names.append(relationship.name)
            }
            if !names.isEmpty { save.toManyBits[pk, default: [:]][entity.number] = layout.bitmap(of: names) }
        }
        recorder.begin(save)
    }
}
