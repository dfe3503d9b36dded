import OpenCoreData

/// A Core Data SQLite file opened for reading, possibly written on an Apple
/// device: version hashes are not compared (ours differ from Apple's), the
/// store's tables are checked against the model's layout instead.
public struct StoreFile {
    /// The coordinator the store was added to.
    public let coordinator: NSPersistentStoreCoordinator
    /// The model that fits the store (for a `.xcdatamodeld`, the version that fits).
    public var model: NSManagedObjectModel { coordinator.managedObjectModel }
    /// The name of the model version that fits, when the model file has versions.
    public let versionName: String?
    /// For a model rebuilt from the store's schema, the facts it could not recover.
    public private(set) var unrecovered: [String] = []

    /// Opens `store` read-only with the model at `modelURL`. For a
    /// `.xcdatamodeld`, tries the versions in the order the store's schema
    /// ranks them (``SQLiteStoreVersionMatching``; the current version first
    /// when they tie), and keeps the first whose entities and columns fit:
    /// an older version lacking columns the store has comes after the one
    /// that wrote it. Throws ``StoreFileError`` with a one-line reason.
    public init(store: URL, model modelURL: URL) throws {
        _ = try Self.metadata(of: store)
        var candidates: [(name: String?, load: () throws -> NSManagedObjectModel)] = []
        if let bundle = try? ModelVersionBundle(url: modelURL) {
            var names = [bundle.currentVersionName] + bundle.versionNames.filter { $0 != bundle.currentVersionName }
            if let versions = try? names.map({ ($0, try bundle.model(named: $0)) }),
               let ranked = try? SQLiteStoreVersionMatching.fits(ofStoreAt: store, among: versions) {
                names = ranked.map(\.name)
            }
            candidates = names.map { name in (name, { try bundle.model(named: name) }) }
        } else {
            candidates = [(nil, { try NSManagedObjectModel.load(contentsOf: modelURL) })]
        }
        var reasons: [String] = []
        for candidate in candidates {
            let model: NSManagedObjectModel
            do { model = try candidate.load() } catch { throw StoreFileError("cannot read the model \(modelURL.path): \(error)") }
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            do {
                try coordinator.addPersistentStore(type: .sqlite, at: store, options: [NSIgnorePersistentStoreVersioningOption: true,
                                                                                       NSReadOnlyPersistentStoreOption: true])
                (self.coordinator, versionName) = (coordinator, candidate.name)
                return
            } catch {
                reasons.append((candidate.name.map { "version \($0): " } ?? "") + Self.reason(error))
            }
        }
        throw StoreFileError("the model does not fit the store: " + reasons.joined(separator: "; "))
    }

    /// Opens `store` read-only with a model rebuilt from its own schema, for
    /// a store whose model is unknown; `unrecovered` says what that model lacks.
    public init(reconstructing store: URL) throws {
        _ = try Self.metadata(of: store)
        let reconstruction = try SQLiteModelReconstruction(store: store)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: reconstruction.model)
        do {
            try coordinator.addPersistentStore(type: .sqlite, at: store, options: [NSIgnorePersistentStoreVersioningOption: true,
                                                                                   NSReadOnlyPersistentStoreOption: true])
        } catch {
            throw StoreFileError("cannot open the store with a model rebuilt from its schema: " + Self.reason(error))
        }
        (self.coordinator, versionName, unrecovered) = (coordinator, nil, reconstruction.unrecovered)
    }

    /// The metadata of a Core Data SQLite file, or a ``StoreFileError``
    /// saying the file is missing or is not such a store.
    public static func metadata(of store: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: store.path) else { throw StoreFileError("no such file: \(store.path)") }
        do {
            return try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        } catch {
            throw StoreFileError("not a Core Data SQLite store: \(store.path) (\(reason(error)))")
        }
    }

    /// An error's own message, without the NSError decoration.
    static func reason(_ error: Error) -> String {
        (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String ?? "\(error)"
    }
}

/// Why a store could not be opened or read, in one line for people.
public struct StoreFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
