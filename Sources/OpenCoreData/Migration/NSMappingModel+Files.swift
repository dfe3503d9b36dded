/// Mapping models from Xcode's files. Xcode compiles an `.xcmappingmodel`
/// into a `.cdm` in the app bundle; here the `.xcmappingmodel` itself is
/// read (as models are read from `.xcdatamodeld`), from the bundles'
/// resource folders. A `.cdm` (a keyed archive) is not read.
extension NSMappingModel {
    /// The mapping model of the `.xcmappingmodel` folder (or its
    /// `xcmapping.xml`) at `url`; nil when there is none or it can't be read.
    /// The models it maps between are looked for at the paths the file
    /// records, beside the file and in the folders above it; when found
    /// they fill entity version hashes, undefined mapping types and the
    /// relationship expressions Xcode leaves to its compiler. Costs one read
    /// of the file (and of the two models).
    public convenience init?(contentsOf url: URL?) {
        guard let url, let file = try? XcodeMappingFile(url: url) else { return nil }
        let models = Self.recordedModels(of: file)
        guard let read = try? XcodeMappingModelReader(file: file, source: models.source,
                                                      destination: models.destination).mappingModel()
        else { return nil }
        self.init()
        entityMappings = read.entityMappings
    }

    /// The mapping model, among the `.xcmappingmodel` files in the resource
    /// folders of `bundles` (the main bundle when nil), that maps
    /// `sourceModel` to `destinationModel`; nil when none does. A file maps
    /// them when the models it records have their entity version hashes, or,
    /// when it records none that can be found, when its entity mappings name
    /// exactly their entities. Reads every mapping file of the bundles.
    public convenience init?(from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?,
                             destinationModel: NSManagedObjectModel?) {
        guard let sourceModel, let destinationModel,
              let found = try? Self.mapping(in: bundles ?? [Bundle.main], from: sourceModel, to: destinationModel)
        else { return nil }
        self.init()
        entityMappings = found.entityMappings
    }

    /// The first mapping file in `bundles` that maps `source` to
    /// `destination`, read against them; nil when none does. Throws when
    /// that file can't be read (259 naming the mapping and property).
    static func mapping(in bundles: [Bundle], from source: NSManagedObjectModel,
                        to destination: NSManagedObjectModel) throws -> NSMappingModel? {
        try mapping(inFolders: bundles.compactMap(\.resourceURL), from: source, to: destination)
    }

    /// ``mapping(in:from:to:)`` over the `.xcmappingmodel` files at the top of `folders`.
    static func mapping(inFolders folders: [URL], from source: NSManagedObjectModel,
                        to destination: NSManagedObjectModel) throws -> NSMappingModel? {
        for url in folders.flatMap(mappingModelURLs(in:)) {
            guard let file = try? XcodeMappingFile(url: url), maps(file, source, destination) else { continue }
            return try XcodeMappingModelReader(file: file, source: source, destination: destination).mappingModel()
        }
        return nil
    }

    /// The `.xcmappingmodel` folders at the top of `folder`, by name.
    static func mappingModelURLs(in folder: URL) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.sorted().filter { $0.hasSuffix(".xcmappingmodel") }.map { folder.appendingPathComponent($0) }
    }

    private static func maps(_ file: XcodeMappingFile, _ source: NSManagedObjectModel,
                             _ destination: NSManagedObjectModel) -> Bool {
        let recorded = recordedModels(of: file)
        if let recordedSource = recorded.source, let recordedDestination = recorded.destination {
            return recordedSource.entityVersionHashesByName == source.entityVersionHashesByName
                && recordedDestination.entityVersionHashesByName == destination.entityVersionHashesByName
        }
        let mappings = file.referenced("entitymappings", from: file.root)
        return Set(mappings.compactMap { $0.string("sourcename") }) == Set(source.entitiesByName.keys)
            && Set(mappings.compactMap { $0.string("destinationname") }) == Set(destination.entitiesByName.keys)
    }

    /// The models at the paths the file records (`sourcemodelpath`,
    /// `destinationmodelpath`, relative to the project), looked for beside
    /// the file and in each folder above it, with and without the path's
    /// leading folders.
    private static func recordedModels(of file: XcodeMappingFile)
        -> (source: NSManagedObjectModel?, destination: NSManagedObjectModel?) {
        func model(_ key: String) -> NSManagedObjectModel? {
            guard let recorded = file.root.string(key) else { return nil }
            let components = recorded.split(separator: "/").map(String.init)
            var folder = file.url.deletingLastPathComponent()
            for _ in 0..<6 {
                for start in components.indices {
                    let candidate = components[start...].reduce(folder) { $0.appendingPathComponent($1) }
                    if FileManager.default.fileExists(atPath: candidate.path),
                       let model = try? ModelFile.load(candidate) { return model }
                }
                guard folder.path != "/" else { break }
                folder = folder.deletingLastPathComponent()
            }
            return nil
        }
        return (model("sourcemodelpath"), model("destinationmodelpath"))
    }
}
