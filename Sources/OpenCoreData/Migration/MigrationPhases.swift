/// Apple's three phases of a copy migration, entity mapping by entity
/// mapping, in batches: (1) destination instances created from each source
/// instance, (2) their relationships set, (3) each policy's custom
/// validation (the model's validation follows, MigrationFiles). Each batch
/// ends with a save of the destination and a reset of both contexts.
struct MigrationPhases {
    let manager: NSMigrationManager
    let mapping: NSMappingModel

    func run() throws {
        let mappings = mapping.entityMappings ?? []
        let source = manager.sourceContext, destination = manager.destinationContext
        try destination.performAndWait {
            try source.performAndWait {
                let sources = try mappings.map { try sourceIDs(for: $0, in: source) }
                manager.unitsTotal = 3 * sources.reduce(0) { $0 + $1.count }
                for (entityMapping, ids) in zip(mappings, sources) {
                    try createInstances(entityMapping, from: ids, source: source)
                }
                manager.relationshipsLeftToInverse = MigrationInverses.leftToInverse(mapping, manager: manager)
                for entityMapping in mappings { try createRelationships(entityMapping, in: destination) }
                for entityMapping in mappings {
                    manager.currentMapping = entityMapping
                    try manager.policy(for: entityMapping).performCustomValidation(forMapping: entityMapping,
                                                                                   manager: manager)
                }
                try endBatch()
            }
        }
    }

    private func createInstances(_ entityMapping: NSEntityMapping, from ids: [NSManagedObjectID],
                                 source: NSManagedObjectContext) throws {
        manager.currentMapping = entityMapping
        let policy = try manager.policy(for: entityMapping)
        try policy.begin(entityMapping, with: manager)
        try inBatches(ids, in: source) {
            try policy.createDestinationInstances(forSource: $0, in: entityMapping, manager: manager)
        }
        try policy.endInstanceCreation(forMapping: entityMapping, manager: manager)
        try endBatch()
    }

    private func createRelationships(_ entityMapping: NSEntityMapping, in destination: NSManagedObjectContext) throws {
        manager.currentMapping = entityMapping
        let policy = try manager.policy(for: entityMapping)
        let ids = manager.associations.destinationsInOrder[entityMapping.name ?? ""] ?? []
        try inBatches(ids, in: destination) {
            try policy.createRelationships(forDestination: $0, in: entityMapping, manager: manager)
        }
        try policy.endRelationshipCreation(forMapping: entityMapping, manager: manager)
        try endBatch()
    }

    /// `body` for the object of each of `ids`, read from `context` a batch at
    /// a time, each batch ending with ``endBatch()``; stops at a cancellation.
    private func inBatches(_ ids: [NSManagedObjectID], in context: NSManagedObjectContext,
                           _ body: (NSManagedObject) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            let batch = Array(ids[start..<min(start + batchSize, ids.count)])
            for object in try Self.objects(batch, in: context) {
                try body(object)
                try manager.checkCancellation()
            }
            try endBatch()
            manager.noteProgress(batch.count)
        }
    }

    private var batchSize: Int { max(manager.batchSize, 1) }

    /// Saves the destination (Throws 134160 when the store refuses it),
    /// records the batch's associations by permanent ID, and resets both contexts.
    private func endBatch() throws {
        let destination = manager.destinationContext
        do {
            try destination.save()
        } catch {
            throw NSError.coreData(NSMigrationManagerDestinationStoreError,
                                   "Can't save the destination store: \((error as NSError).localizedDescription)",
                                   userInfo: [NSUnderlyingErrorKey: error,
                                              "entityMapping": manager.currentMapping?.name ?? ""])
        }
        manager.associations.settle { !$0.objectID.isTemporaryID }
        destination.reset()
        manager.sourceContext.reset()
    }

    /// The source instances `entityMapping` migrates: those its source
    /// expression fetches (`FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", …)`,
    /// as Xcode writes it, or any expression giving objects), else every
    /// instance of the source entity, sub-entities excluded (they have their
    /// own mappings). Add and remove mappings migrate none.
    private func sourceIDs(for entityMapping: NSEntityMapping,
                           in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        guard entityMapping.mappingType != .addEntityMappingType,
              entityMapping.mappingType != .removeEntityMappingType,
              let entity = manager.sourceEntity(for: entityMapping) else { return [] }
        var predicate: NSPredicate?
        if let expression = entityMapping.sourceExpression {
            if let fetch = Self.sourceFetch(in: expression) {
                predicate = fetch.predicate == "TRUEPREDICATE" || fetch.predicate.isEmpty ? nil
                    : NSPredicate(format: fetch.predicate)
            } else {
                let value = try manager.evaluate(expression, source: nil, destination: nil, mapping: entityMapping,
                                                 propertyMapping: nil, policy: try manager.policy(for: entityMapping))
                return MigrationValues.objects(in: value).map(\.objectID)
            }
        }
        let request = NSFetchRequest<NSManagedObjectID>(entityName: entity.name ?? "")
        request.resultType = .managedObjectIDResultType
        request.includesSubentities = false
        request.predicate = predicate
        return try context.fetch(request)
    }

    /// The entity name and predicate of the fetch a source expression makes.
    static func sourceFetch(in expression: NSExpression) -> (entity: String, predicate: String)? {
        guard case .function(let name, let operand, let arguments) = expression.kind else { return nil }
        if name == "fetchRequestForSourceEntityNamed:predicateString:", arguments.count == 2,
           case .constant(let entity as String) = arguments[0].kind,
           case .constant(let predicate as String) = arguments[1].kind {
            return (entity, predicate)
        }
        return ([operand].compactMap { $0 } + arguments).lazy.compactMap(sourceFetch).first
    }

    /// The objects of `ids`, in that order, read with one fetch per entity
    /// and 200 IDs (the SQL of `self IN` nests one term per ID, and SQLite
    /// refuses expressions deeper than 1000).
    static func objects(_ ids: [NSManagedObjectID], in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        var byID: [NSManagedObjectID: NSManagedObject] = [:]
        for (entityName, group) in Dictionary(grouping: ids, by: { $0.entity.name ?? "" }) {
            for start in stride(from: 0, to: group.count, by: 200) {
                let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
                let slice = Array(group[start..<min(start + 200, group.count)])
                request.predicate = NSPredicate(format: "self IN %@", slice)
                request.includesSubentities = false
                request.returnsObjectsAsFaults = false
                for object in try context.fetch(request) { byID[object.objectID] = object }
            }
        }
        return ids.compactMap { byID[$0] ?? (try? context.existingObject(with: $0)) }
    }
}
