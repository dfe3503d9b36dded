/// A controller's computed sections kept in a file between launches, so
/// that `performFetch()` neither fetches nor sorts when the store did not
/// change: the objects come back as faults with their sort keys.
///
/// The file lies in a folder beside the store (`<store>-FRCCaches/<name>.plist`),
/// or in the user's caches folder when the store has no file. It records the
/// request (entity, predicate, sort descriptors, section key path, window) and a
/// stamp of the stores (identifier, file size and modification date, and the
/// saves made by the store objects that wrote it); a cache whose request or
/// stamp differs is ignored and rewritten.
/// Only results of unsaved-change-free contexts without a parent (whose
/// unsaved changes the stamp can't see), with property-list sort keys
/// (strings, numbers, dates, data) are cached.
struct FetchedResultsCache {
    let file: URL
    private let fingerprint: String
    private let context: NSManagedObjectContext

    init(name: String, request: NSFetchRequest<NSFetchRequestResult>, sectionNameKeyPath: String?, context: NSManagedObjectContext) {
        let stores = context.persistentStoreCoordinator?.persistentStores ?? []
        let folder = stores.lazy.compactMap(\.url).first { $0.isFileURL && $0.path != "/dev/null" }
            .map { URL(fileURLWithPath: $0.path + "-FRCCaches") } ?? Self.userCachesFolder
        file = folder.appendingPathComponent(name + ".plist")
        fingerprint = [request.entityName ?? "", request.predicate?.predicateFormat ?? "",
                       (request.sortDescriptors ?? []).map(\.description).joined(separator: ","),
                       sectionNameKeyPath ?? "", "\(request.includesSubentities)", "\(request.fetchLimit)", "\(request.fetchOffset)"]
            .joined(separator: "|")
        self.context = context
        Self.foldersLock.withLock { _ = Self.folders.insert(folder) }
    }

    /// The cached entries, in order, when the cache is valid; objects are faults.
    func read() -> [FetchedResultsEntry]? {
        guard !context.hasChanges, context.parent == nil, let coordinator = context.persistentStoreCoordinator,
              let data = try? Data(contentsOf: file),
              let plist = try? UntrustedPropertyList.propertyList(from: data) as? [String: Any],
              plist["fingerprint"] as? String == fingerprint, plist["stamp"] as? String == stamp(),
              plist["saves"] as? String == saves() || plist["instances"] as? String != instances(),
              let rows = plist["entries"] as? [[Any]] else { return nil }
        var entries: [FetchedResultsEntry] = []
        entries.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row.count == 3, let uri = (row[0] as? String).flatMap(URL.init(string:)),
                  let id = coordinator.managedObjectID(forURIRepresentation: uri),
                  let sectionName = row[1] as? String, let keys = row[2] as? [[Any]] else { return nil }
            entries.append(FetchedResultsEntry(object: context.object(with: id), keys: keys.map(\.first),
                                               sectionName: sectionName, sequence: index))
        }
        return entries
    }

    /// Writes `results` if they can be cached; a cache that can't be written is simply absent.
    func write(_ results: FetchedResultsSections) {
        guard !context.hasChanges, context.parent == nil else { return }
        var rows: [[Any]] = []
        for section in results.sections {
            for entry in section.entries {
                guard !entry.object.objectID.isTemporaryID, entry.keys.allSatisfy(Self.isPropertyListValue) else { return }
                rows.append([entry.object.objectID.uriRepresentation().absoluteString, entry.sectionName,
                             entry.keys.map { $0.map { [$0] } ?? [] }])
            }
        }
        let plist: [String: Any] = ["fingerprint": fingerprint, "stamp": stamp(), "instances": instances(), "saves": saves(), "entries": rows]
        guard let data = try? BinaryPropertyList.data(plist) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    private var stores: [NSPersistentStore] { context.persistentStoreCoordinator?.persistentStores ?? [] }

    /// What identifies the stores' contents across launches: identifiers,
    /// and the size and modification date of their files.
    private func stamp() -> String {
        stores.map { store in
            var parts = [store.identifier ?? ""]
            if let path = store.url?.path, path != "/dev/null" {
                for file in [path, path + "-wal"] {
                    let attributes = try? FileManager.default.attributesOfItem(atPath: file)
                    let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
                    parts.append("\(attributes?[.size] ?? 0)@\(date)")
                }
            }
            return parts.joined(separator: ":")
        }.joined(separator: ";")
    }

    // A file's date may not change between two quick saves; within the
    // process that wrote the cache, the stores' save counts must match too.

    /// The store objects of this process, as the cache recorded them.
    private func instances() -> String {
        stores.map { "\(ProcessInfo.processInfo.processIdentifier).\(UInt(bitPattern: ObjectIdentifier($0).hashValue))" }.joined(separator: ";")
    }

    /// How many saves those store objects made.
    private func saves() -> String {
        stores.map { "\($0.generation)" }.joined(separator: ";")
    }

    private static func isPropertyListValue(_ value: Any?) -> Bool {
        guard let value else { return true }
        return value is String || value is Date || value is Data || value is Bool || NumericValue(value) != nil
    }

    // MARK: Deleting caches

    /// Where the caches of stores without a file go unless told otherwise:
    /// `OpenCoreData/FetchedResultsCaches` in the user's caches folder
    /// (`$XDG_CACHE_HOME` or `~/.cache` on Linux), as Core Data keeps them in
    /// the application's Caches folder.
    static let standardUserCachesFolder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("OpenCoreData/FetchedResultsCaches")
    /// Where the caches of stores without a file go: ``standardUserCachesFolder``
    /// unless a process sets another before its first cache (the tests point
    /// it into their scratch folder, so that they write nothing in the user's).
    static var userCachesFolder: URL {
        get { foldersLock.withLock { userFolder } }
        set { foldersLock.withLock { userFolder = newValue } }
    }
    private static let foldersLock = NSLock()
    nonisolated(unsafe) private static var userFolder = standardUserCachesFolder
    /// Every folder beside a store this process kept a cache in.
    nonisolated(unsafe) private static var folders: Set<URL> = []

    /// Deletes the cache `name` (every cache for nil) in every known folder:
    /// the user's caches folder (where earlier launches may have left caches)
    /// and the folders beside the stores this process kept caches for.
    static func delete(named name: String?) {
        for folder in foldersLock.withLock({ folders.union([userFolder]) }) {
            if let name {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name + ".plist"))
            } else {
                for file in (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
                where file.pathExtension == "plist" {
                    try? FileManager.default.removeItem(at: file)
                }
            }
        }
    }
}
