#if canImport(FoundationXML)
import FoundationXML
#endif

/// Finding and reading Xcode model files: `Name.xcdatamodeld` bundles of
/// versions, `Name.xcdatamodel` folders, and their `contents` XML.
enum ModelFile {
    /// The model at `url`: for a `.xcdatamodeld` its current version, for a
    /// `.xcdatamodel` folder its `contents`, otherwise the file as XML.
    static func load(_ url: URL) throws -> NSManagedObjectModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelFileError(.missingFile, "No model file here. Pass the path of a .xcdatamodeld, a .xcdatamodel or its contents file.", file: url)
        }
        guard isDirectory.boolValue else { return try ModelXMLReader.read(contentsOf: url) }
        if url.pathExtension == "xcdatamodeld" { return try ModelVersionBundle(url: url).currentModel() }
        let contents = url.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            throw ModelFileError(.unreadable, "This folder has no 'contents' file. Models older than Xcode 4 (binary 'elements' files) are not supported: open and save the model in a current Xcode.", file: url)
        }
        return try ModelXMLReader.read(contentsOf: contents)
    }

    /// The model files among a bundle's resources.
    static func modelURLs(in bundle: Bundle) -> [URL] {
        guard let resources = bundle.resourceURL,
              let names = try? FileManager.default.contentsOfDirectory(atPath: resources.path) else { return [] }
        return names.sorted().filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
            .map { resources.appendingPathComponent($0) }
    }
}

/// A versioned model: a `.xcdatamodeld` folder holding one `.xcdatamodel`
/// per version and a `.xccurrentversion` plist naming the current one.
///
/// Every version stays reachable by name, for migration.
public struct ModelVersionBundle: Sendable {
    /// The `.xcdatamodeld` folder read.
    public let url: URL
    /// The version names (folder names without `.xcdatamodel`), sorted as Finder sorts them.
    public let versionNames: [String]
    /// The current version's name.
    public let currentVersionName: String

    /// Reads the bundle's version list and current version; throws when the
    /// folder holds no version or names a current version it does not have.
    public init(url: URL) throws {
        self.url = url
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let names = entries.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        guard !names.isEmpty else {
            throw ModelFileError(.unreadable, "This .xcdatamodeld holds no .xcdatamodel version.", file: url)
        }
        versionNames = names
        let stated = try Self.currentVersion(in: url)
        if let stated {
            guard names.contains(stated) else {
                throw ModelFileError(.invalidModel, "The current version '\(stated)' named by .xccurrentversion is not in the bundle; it holds \(names.joined(separator: ", ")).", file: url)
            }
            currentVersionName = stated
        } else if names.count == 1 {
            currentVersionName = names[0]
        } else {
            // Xcode falls back to the version named like the bundle itself.
            let bundleName = url.deletingPathExtension().lastPathComponent
            currentVersionName = names.contains(bundleName) ? bundleName : names[names.count - 1]
        }
    }

    /// The model of the version named `name`.
    public func model(named name: String) throws -> NSManagedObjectModel {
        guard versionNames.contains(name) else {
            throw ModelFileError(.missingFile, "No version named '\(name)'; the bundle holds \(versionNames.joined(separator: ", ")).", file: url)
        }
        let model = try ModelFile.load(url.appendingPathComponent(name + ".xcdatamodel"))
        model.versionBundleURL = url
        model.versionName = name
        return model
    }

    /// The model of the current version.
    public func currentModel() throws -> NSManagedObjectModel { try model(named: currentVersionName) }

    /// Every version's model, in ``versionNames`` order: what finding the
    /// version that wrote a store, or migrating from it, starts from. Reads
    /// one file per version.
    public func allVersions() throws -> [(name: String, model: NSManagedObjectModel)] {
        try versionNames.map { ($0, try model(named: $0)) }
    }

    /// The `_XCCurrentVersionName` of a `.xccurrentversion` plist at `bundleURL`,
    /// without its `.xcdatamodel` suffix; nil when there is no file or it names none.
    static func currentVersion(in bundleURL: URL) throws -> String? {
        let plistURL = bundleURL.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: plistURL.path) else { return nil }
        return try currentVersionName(plist: data, file: plistURL)
    }

    /// The version a `.xccurrentversion` plist names, or nil for an empty one.
    public static func currentVersionName(plist data: Data, file: URL? = nil) throws -> String? {
        let plist: Any
        do {
            plist = try UntrustedPropertyList.propertyList(from: data)
        } catch {
            throw ModelFileError(.unreadable, "Not a property list: \(error.localizedDescription)", file: file)
        }
        guard let dictionary = plist as? [String: Any] else {
            throw ModelFileError(.unreadable, "Expected a dictionary with _XCCurrentVersionName.", file: file)
        }
        guard let name = dictionary["_XCCurrentVersionName"] as? String, !name.isEmpty else { return nil }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}
