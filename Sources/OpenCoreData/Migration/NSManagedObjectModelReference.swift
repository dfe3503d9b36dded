/// A model version named for a staged migration, with the checksum it must
/// have (Apple's NSManagedObjectModelReference, iOS 17).
///
/// The checksum is OpenCoreData's ``NSManagedObjectModel/versionChecksum``
/// (docs/VersionHashes.md): Apple's, from Xcode's `VersionInfo.plist` or
/// build log, never matches. A model that can't be found, or whose checksum
/// is not `versionChecksum`, makes the migration throw
/// NSManagedObjectModelReferenceNotFoundError (134504) naming both checksums.
open class NSManagedObjectModelReference: NSObject, @unchecked Sendable {
    /// The checksum the referenced model must have.
    public let versionChecksum: String
    private let source: Source
    private let lock = NSLock()
    private var loaded: Result<NSManagedObjectModel, NSError>?

    private enum Source {
        case model(NSManagedObjectModel)
        case file(URL)
        case named(String, Bundle?)
    }

    /// A reference to `model`.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        source = .model(model)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the model file at `fileURL`: a `.xcdatamodel` version
    /// (or its `contents`), or a `.xcdatamodeld` (its current version).
    public init(fileURL: URL, versionChecksum: String) {
        source = .file(fileURL)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the model named `modelName` in `bundle`'s resources
    /// (the main bundle when nil): `<name>.xcdatamodeld` (its current
    /// version), `<name>.xcdatamodel`, or a version of that name in any
    /// `.xcdatamodeld` there.
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        source = .named(modelName, bundle)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// The referenced model, loaded once. Traps, as Core Data raises, when
    /// it can't be found or has another checksum (migrations throw 134504 instead).
    open var resolvedModel: NSManagedObjectModel {
        do { return try model() } catch { preconditionFailure(error.localizedDescription) }
    }

    /// The referenced model, checked against ``versionChecksum``. Throws 134504.
    func model() throws -> NSManagedObjectModel {
        try lock.withLock {
            if loaded == nil { loaded = Result { try load() }.mapError { $0 as NSError } }
            return try loaded!.get()
        }
    }

    private func load() throws -> NSManagedObjectModel {
        let found: NSManagedObjectModel?
        switch source {
        case .model(let model): found = model
        case .file(let url): found = try? ModelFile.load(url)
        case .named(let name, let bundle): found = Self.model(named: name, in: bundle ?? .main)
        }
        guard let found else { throw notFound("the model \(describe) can't be found or loaded") }
        guard found.versionChecksum == versionChecksum else {
            throw notFound("the model \(describe) has version checksum \(found.versionChecksum), not "
                           + "\(versionChecksum) (OpenCoreData's checksums are not Apple's: docs/VersionHashes.md)")
        }
        return found
    }

    private static func model(named name: String, in bundle: Bundle) -> NSManagedObjectModel? {
        guard let resources = bundle.resourceURL else { return nil }
        for candidate in ["\(name).xcdatamodeld", "\(name).xcdatamodel"] {
            let url = resources.appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: url.path), let model = try? ModelFile.load(url) { return model }
        }
        for url in ModelFile.modelURLs(in: bundle) where url.pathExtension == "xcdatamodeld" {
            if let versions = try? ModelVersionBundle(url: url), versions.versionNames.contains(name) {
                return try? versions.model(named: name)
            }
        }
        return nil
    }

    private var describe: String {
        switch source {
        case .model: return "given in code"
        case .file(let url): return "at \(url.path)"
        case .named(let name, _): return "named \(name)"
        }
    }

    private func notFound(_ reason: String) -> NSError {
        NSError.coreData(NSManagedObjectModelReferenceNotFoundError,
                         "The referenced managed object model couldn't be found or loaded: \(reason).",
                         userInfo: ["versionChecksum": versionChecksum])
    }
}
