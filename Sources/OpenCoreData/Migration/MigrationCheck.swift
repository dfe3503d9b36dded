/// Checks a mapping model against the manager's models before anything is
/// read: every entity a mapping names exists on its side, and an entity
/// version hash a mapping records is that entity's. Otherwise Core Data's
/// NSMigrationError (134110), "Mismatch between mapping and
/// source/destination models", naming the mapping and entity.
struct MigrationCheck {
    let manager: NSMigrationManager
    let mapping: NSMappingModel

    func run() throws {
        for entityMapping in mapping.entityMappings ?? [] {
            try check(entityMapping, side: "source", name: entityMapping.sourceEntityName,
                      hash: entityMapping.sourceEntityVersionHash, in: manager.sourceModel)
            try check(entityMapping, side: "destination", name: entityMapping.destinationEntityName,
                      hash: entityMapping.destinationEntityVersionHash, in: manager.destinationModel)
        }
    }

    private func check(_ entityMapping: NSEntityMapping, side: String, name: String?, hash: Data?,
                       in model: NSManagedObjectModel) throws {
        guard let name else { return }
        let problem: String
        if let entity = model.entitiesByName[name] {
            guard let hash, hash != entity.versionHash else { return }
            problem = "records another version hash for \(side) entity \(name)"
        } else {
            problem = "names \(side) entity \(name), which the \(side) model lacks"
        }
        throw NSError.coreData(NSMigrationError,
                               "Mismatch between mapping and source/destination models: entity mapping "
                               + "\(entityMapping.name ?? "?") \(problem).",
                               userInfo: ["entityMapping": entityMapping.name ?? "", "entity": name,
                                          "reason": "Mismatch between mapping and source/destination models"])
    }
}
