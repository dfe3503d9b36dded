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

    /// The configuration of the model the store holds; nil for the default one (every entity).
    public let configurationName: String?

    /// Opens `store` read-only with the model at `modelURL`. For a
    /// `.xcdatamodeld`, tries the versions in the order the store's schema
    /// ranks them (``SQLiteStoreVersionMatching``; the current version first
    /// when they tie), and keeps the first whose entities and columns fit:
    /// an older version lacking columns the store has comes after the one
    /// that wrote it. A store that holds one configuration of the model fits
    /// that configuration: `configuration` names it, or, when nil, the
    /// model's configurations are tried after the default one.
    /// Throws ``StoreFileError`` with a one-line reason.
    public init(store: URL, model modelURL: URL, configuration: String? = nil) throws {
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
        var namedConfigurationFound = configuration == nil
        for candidate in candidates {
            let model: NSManagedObjectModel
            do {
                model = try candidate.load()
            } catch {
                throw StoreFileError("cannot read the model \(modelURL.path): \(ErrorText.line(error))")
            }
            let configurations: [String?]
            if let configuration {
                guard model.configurations.contains(configuration) else { continue }
                namedConfigurationFound = true
                configurations = [configuration]
            } else {
                configurations = [nil] + model.configurations
            }
            for configurationName in configurations {
                let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
                do {
                    try coordinator.addPersistentStore(type: .sqlite, configuration: configurationName, at: store,
                                                       options: Self.readOnlyOptions)
                    (self.coordinator, versionName) = (coordinator, candidate.name)
                    self.configurationName = configurationName
                    return
                } catch {
                    if ErrorText.isCorruption(error) { throw ErrorText.damaged(store) }
                    let label = [candidate.name.map { "version \($0)" },
                                 configurationName.map { "configuration \($0)" }]
                    let prefix = label.compactMap { $0 }.joined(separator: ", ")
                    reasons.append((prefix.isEmpty ? "" : prefix + ": ") + ErrorText.line(error))
                }
            }
        }
        guard namedConfigurationFound else {
            throw StoreFileError("the model has no configuration \(configuration ?? "")")
        }
        // One reason per candidate could run to kilobytes for a bundle of many versions.
        let more = reasons.count > 3 ? "; and \(reasons.count - 3) more" : ""
        let shown = reasons.prefix(3).joined(separator: "; ") + more
        throw StoreFileError("the model does not fit the store: " + shown)
    }

    static var readOnlyOptions: [AnyHashable: Any] { [NSIgnorePersistentStoreVersioningOption: true,
                                                      NSReadOnlyPersistentStoreOption: true] }

    /// Opens `store` read-only with a model rebuilt from its own schema, for
    /// a store whose model is unknown; `unrecovered` says what that model lacks.
    public init(reconstructing store: URL) throws {
        _ = try Self.metadata(of: store)
        let reconstruction: SQLiteModelReconstruction
        do {
            reconstruction = try SQLiteModelReconstruction(store: store)
        } catch {
            throw ErrorText.isCorruption(error) ? ErrorText.damaged(store) : StoreFileError(ErrorText.line(error))
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: reconstruction.model)
        do {
            try coordinator.addPersistentStore(type: .sqlite, at: store, options: Self.readOnlyOptions)
        } catch {
            if ErrorText.isCorruption(error) { throw ErrorText.damaged(store) }
            throw StoreFileError("cannot open the store with a model rebuilt from its schema: " + ErrorText.line(error))
        }
        (self.coordinator, versionName, configurationName) = (coordinator, nil, nil)
        unrecovered = reconstruction.unrecovered
    }

    /// The metadata of a Core Data SQLite file, or a ``StoreFileError``
    /// saying the file is missing, damaged, or not such a store.
    public static func metadata(of store: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: store.path) else { throw StoreFileError("no such file: \(store.path)") }
        do {
            return try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        } catch {
            if ErrorText.isCorruption(error) { throw ErrorText.damaged(store) }
            // The library's message names the file too; the SQLite reason alone is kept.
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? Error
            let reason = underlying.map(ErrorText.line) ?? ErrorText.line(error)
            throw StoreFileError("not a Core Data SQLite store: \(store.path) (\(reason))")
        }
    }

    /// An error's own message, without the NSError decoration.
    static func reason(_ error: Error) -> String {
        ErrorText.line(error)
    }
}

/// Why a store could not be opened or read, in one line for people.
public struct StoreFileError: Error, CustomStringConvertible {
    /// The reason, for people.
    public let description: String
    /// Whether the file is damaged (SQLite found it malformed), not merely of another kind.
    public let isDamage: Bool
    init(_ description: String, isDamage: Bool = false) { (self.description, self.isDamage) = (description, isDamage) }
}
