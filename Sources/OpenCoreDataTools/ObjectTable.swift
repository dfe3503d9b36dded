import OpenCoreData

/// Fetched objects as rows: the object's URI, its stored attributes and its
/// to-one relationships (as the destination's URI), for `ocd query`.
public struct ObjectTable {
    /// Column names: the object URI's (``uriColumn``), then attributes and
    /// to-one relationships in name order.
    public let columns: [String]
    /// The name of the object URI's column: `id`, or `objectID` when the
    /// entity has a property named `id` (each name is a JSON key, so they must differ).
    public let uriColumn: String
    /// One value per column and object, as the context returned it.
    public let rows: [[Any?]]

    /// Fetches the objects of `entityName` matching `predicate`, sorted by
    /// `sortKeys` (a leading `-` sorts descending), at most `limit` of them.
    /// Reading the values is the long part (it fires the faults), so
    /// `progress` hears (rows read, rows fetched) every `progressInterval`
    /// rows and once at the end.
    public init(coordinator: NSPersistentStoreCoordinator, entityName: String, predicate: NSPredicate?,
                sortKeys: [String], limit: Int?, progressInterval: Int = 1000,
                progress: ((_ read: Int, _ total: Int) -> Void)? = nil) throws {
        guard let entity = coordinator.managedObjectModel.entitiesByName[entityName] else {
            let names = coordinator.managedObjectModel.entities.compactMap(\.name).sorted()
            // `ocd inspect` lists persistent history's bookkeeping (Z_PRIMARYKEY numbers from 16000) beside
            // the app's entities; it has no model entity to fetch through.
            let history = ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"].contains(entityName)
                ? " (\(entityName) is persistent history's own table, not an entity of the app's model)" : ""
            let hint = history.isEmpty ? ErrorText.suggestion(for: entityName, among: names) : history
            throw StoreFileError("no entity \(entityName) in the model\(hint)"
                                 + " (it has \(names.joined(separator: ", ")))")
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.predicate = predicate
        request.sortDescriptors = sortKeys.map { key in
            key.hasPrefix("-") ? NSSortDescriptor(key: String(key.dropFirst()), ascending: false) : NSSortDescriptor(key: key, ascending: true)
        }
        if let limit { request.fetchLimit = limit }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let objects: [NSManagedObject]
        do {
            objects = try context.fetch(request)
        } catch {
            throw Self.explained(error, entity: entity)
        }
        let keys = entity.properties.filter { property in
            switch property {
            case let attribute as NSAttributeDescription: !attribute.isTransient
            case let relationship as NSRelationshipDescription: !relationship.isTransient && !relationship.isToMany
            default: false
            }
        }.map(\.name).sorted()
        uriColumn = ["id", "objectID", "_objectID"].first { !keys.contains($0) } ?? "_objectID"
        columns = [uriColumn] + keys
        rows = objects.enumerated().map { index, object in
            if index > 0, index % progressInterval == 0 { progress?(index, objects.count) }
            return [object.objectID] + keys.map { object.value(forKey: $0) }
        }
        progress?(objects.count, objects.count)
    }

    /// A JSON array of objects keyed by column name.
    public var json: String {
        JSONValue.document(rows.map { row in
            Dictionary(uniqueKeysWithValues: zip(columns, row.map { JSONValue.from($0) }))
        })
    }

    /// RFC 4180 CSV with a header line.
    public var csv: String {
        func field(_ text: String) -> String {
            text.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        return ([columns] + rows.map { $0.map(Self.text) }).map { $0.map(field).joined(separator: ",") }.joined(separator: "\n")
    }

    /// Aligned columns for a terminal; long values are cut at 40 characters,
    /// but not object URIs: their distinct part is the end (`…/Country/p3`).
    public var table: String {
        let cells = [columns] + rows.map { $0.map { value in
            let text = Self.text(value).replacingOccurrences(of: "\n", with: " ")
            if value is NSManagedObjectID || value is NSManagedObject { return text }
            return text.count > 40 ? text.prefix(39) + "…" : text
        } }
        let widths = columns.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        let lines = cells.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        return (lines + ["(\(rows.count) object\(rows.count == 1 ? "" : "s"))"]).joined(separator: "\n")
    }

    /// A fetch's unknown key (Core Data's "keypath … not found in entity …")
    /// with the property meant, when one is close.
    static func explained(_ error: Error, entity: NSEntityDescription) -> Error {
        let message = ErrorText.line(error)
        guard let match = message.firstMatch(of: /keypath (\S+) not found in entity (\S+?):/) else { return error }
        let owner = entity.managedObjectModel?.entitiesByName[String(match.2)] ?? entity
        let key = String(match.1.split(separator: ".").last ?? match.1)
        let names = owner.properties.map(\.name)
        let hint = ErrorText.suggestion(for: key, among: names)
        return StoreFileError("no property \(key) in entity \(owner.name ?? "")\(hint)"
                              + " (it has \(names.sorted().joined(separator: ", ")))")
    }

    static func text(_ value: Any?) -> String {
        switch JSONValue.from(value) {
        case is NSNull: ""
        case let string as String: string
        case let other: "\(other)"
        }
    }
}
