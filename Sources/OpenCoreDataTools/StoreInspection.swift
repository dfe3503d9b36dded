import OpenCoreData
import GRDB

/// What a Core Data SQLite file holds, read from its bookkeeping tables
/// without a model: UUID, metadata, and each entity of Z_PRIMARYKEY with its
/// object count; with a model, whether that model opens the store.
public struct StoreInspection {
    /// One row of Z_PRIMARYKEY and the rows of its table.
    public struct Entity {
        /// The entity's name (`Z_NAME`).
        public let name: String
        /// The entity's number (`Z_ENT`).
        public let number: Int
        /// The superentity's name; nil for a root entity.
        public let parent: String?
        /// The table holding its objects: Z + the root entity's name in capitals.
        public let table: String
        /// Objects of exactly this entity (not its subentities); nil when the table is missing.
        public let objects: Int?
        /// The highest primary key handed out (Z_MAX): objects created, deleted ones included.
        public let maxPrimaryKey: Int
    }

    /// Whether a model opens the store.
    public enum Verdict {
        /// Apple's version hashes in the metadata equal the model's.
        case compatible
        /// The hashes differ (as they do between OpenCoreData and Apple) but the
        /// entity numbers and columns fit: the store opens with this model.
        case compatibleBySchema(version: String?)
        /// The model does not open the store; `reason` is the error's message on one line.
        case incompatible(reason: String)
    }

    /// The store file's path.
    public let path: String
    /// The store's UUID from `Z_METADATA`; nil when the file has none.
    public let uuid: String?
    /// The store's metadata dictionary (`Z_METADATA`'s property list).
    public let metadata: [String: Any]
    /// Every entity of `Z_PRIMARYKEY`, with its object count.
    public let entities: [Entity]
    /// Whether the given model opens the store; nil when no model was given.
    public let verdict: Verdict?
    /// The model rebuilt from the store's schema, when asked for.
    public let reconstruction: SQLiteModelReconstruction?

    /// Reads `store`; when `model` is given, also opens the store with it for
    /// a verdict; with `reconstruct`, rebuilds a model from the store's schema.
    /// Counting a big table takes a while, so `progress` hears (entities
    /// counted, entities) after each one.
    /// `configuration` names the model's configuration the store holds (see
    /// ``StoreFile/init(store:model:configuration:)``).
    public init(store: URL, model: URL? = nil, configuration: String? = nil, reconstruct: Bool = false,
                progress: ((_ counted: Int, _ total: Int) -> Void)? = nil) throws {
        metadata = try StoreFile.metadata(of: store)
        path = store.path
        uuid = metadata[NSStoreUUIDKey] as? String
        do {
            entities = try Self.entities(of: store, progress: progress)
            reconstruction = reconstruct ? try SQLiteModelReconstruction(store: store) : nil
        } catch {
            if ErrorText.isCorruption(error) { throw ErrorText.damaged(store) }
            throw StoreFileError("cannot read \(store.path): \(StoreFile.reason(error))")
        }
        guard let model else { verdict = nil; return }
        do {
            let file = try StoreFile(store: store, model: model, configuration: configuration)
            let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]
            let hashesAgree = stored.mapValues { $0 as? Data } == file.model.entityVersionHashesByName.mapValues { Optional($0) }
            verdict = hashesAgree ? .compatible : .compatibleBySchema(version: file.versionName)
        } catch {
            if ErrorText.isCorruption(error) { throw ErrorText.damaged(store) }
            verdict = .incompatible(reason: ErrorText.line(error))
        }
    }

    static func entities(of store: URL, progress: ((Int, Int) -> Void)? = nil) throws -> [Entity] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: store.path, configuration: configuration)
        return try queue.read { db in
            // Checked rows: every superentity chain ends at a root, so the walks below end.
            let rows = try SQLitePrimaryKeyTable.rows(db, file: store)
            let names = Dictionary(rows.map { ($0.number, $0.name) }, uniquingKeysWith: { a, _ in a })
            let supers = Dictionary(rows.map { ($0.number, $0.superNumber) }, uniquingKeysWith: { a, _ in a })
            return try rows.enumerated().map { index, row in
                defer { progress?(index + 1, rows.count) }
                var root = row.number
                while let parent = supers[root], parent != 0, names[parent] != nil { root = parent }
                let table = "Z" + (names[root] ?? "").uppercased()
                let objects = try db.tableExists(table)
                    ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE Z_ENT = ?", arguments: [row.number])
                    : nil
                return Entity(name: row.name, number: row.number, parent: names[row.superNumber],
                              table: table, objects: objects, maxPrimaryKey: Int(row.maxPrimaryKey))
            }
        }
    }

    /// The inspection as a JSON document: `{"path", "uuid", "metadata",
    /// "entities": [{"name", "number", "parent", "table", "objects", "maxPrimaryKey"}], "verdict",
    /// "reconstructedModel" (as `ocd model` prints it), "unrecovered"}`.
    public var json: String {
        var document: [String: Any] = [
            "path": path,
            "uuid": uuid ?? NSNull(),
            "metadata": JSONValue.from(metadata),
            "entities": entities.map { entity -> [String: Any] in
                ["name": entity.name, "number": entity.number, "parent": entity.parent ?? NSNull(), "table": entity.table,
                 "objects": entity.objects ?? NSNull(), "maxPrimaryKey": entity.maxPrimaryKey]
            },
        ]
        if let verdict { document["verdict"] = verdictJSON(verdict) }
        if let reconstruction {
            document["reconstructedModel"] = try? JSONSerialization.jsonObject(with: Data(ModelSummary.json(reconstruction.model).utf8))
            document["unrecovered"] = reconstruction.unrecovered
        }
        return JSONValue.document(document)
    }

    func verdictJSON(_ verdict: Verdict) -> [String: Any] {
        switch verdict {
        case .compatible: ["compatible": true, "versionHashesAgree": true]
        case .compatibleBySchema(let version): ["compatible": true, "versionHashesAgree": false, "modelVersion": version ?? NSNull()]
        case .incompatible(let reason): ["compatible": false, "reason": reason]
        }
    }

    /// The inspection for people: one line per fact and per entity.
    public var text: String {
        var lines = ["store \(path)", "uuid \(uuid ?? "none")"]
        for key in metadata.keys.sorted() where key != NSStoreUUIDKey && key != NSStoreModelVersionHashesKey {
            lines.append("metadata \(key): \(JSONValue.from(metadata[key]))")
        }
        for entity in entities {
            let parent = entity.parent.map { ", inherits \($0)" } ?? ""
            lines.append("entity \(entity.name) (#\(entity.number)\(parent)): \(entity.objects.map(String.init) ?? "no table") objects in \(entity.table)")
        }
        switch verdict {
        case nil: break
        case .compatible?: lines.append("model: compatible (version hashes agree)")
        case .compatibleBySchema(let version)?:
            lines.append("model: compatible by schema\(version.map { " (version \($0))" } ?? ""); version hashes differ, open with NSIgnorePersistentStoreVersioningOption")
        case .incompatible(let reason)?: lines.append("model: incompatible: \(reason)")
        }
        if let reconstruction {
            lines.append("model rebuilt from the schema:")
            lines.append(ModelSummary.text(reconstruction.model))
            lines += reconstruction.unrecovered.map { "not recovered: \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
