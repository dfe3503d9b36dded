// Fetching: the stores select records, and the context merges its unsaved
// objects in (inserted ones included, deleted ones left out) unless the
// request says `includesPendingChanges = false`.

extension NSManagedObject: FetchCandidate {
    var candidateEntity: NSEntityDescription { entity }
}

extension NSManagedObjectContext {
    /// The objects (or IDs, dictionaries, count) `request` selects. Without
    /// unsaved changes this costs one store fetch, with results as faults;
    /// with them, matching unsaved objects are merged and the request's
    /// selection is applied again in memory.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        checkConcurrency("fetching \(request.entityName ?? request.entity?.name ?? "")")
        let untyped = request.untyped
        if untyped.resultType == .countResultType { return [NSNumber(value: try count(for: request)) as! T] }
        if untyped.resultType == .dictionaryResultType { return try dictionaries(for: untyped).map { $0 as! T } }
        let prefetching = untyped.resultType == .managedObjectResultType ? untyped.relationshipKeyPathsForPrefetching ?? [] : []
        if !prefetching.isEmpty { try FetchKeyPathCheck.checkPrefetching(prefetching, entity: resolveEntity(of: untyped)) }
        if untyped.resultType == .managedObjectIDResultType {
            guard untyped.includesPendingChanges && hasChanges else {
                let entity = resolveEntity(of: untyped)
                try FetchKeyPathCheck.check(untyped, entity: entity)
                return try storeSelection(untyped, entity: entity).map { $0 as! T }
            }
            return try fetchObjects(untyped).map { $0.objectID as! T }
        }
        let (objects, loaded) = try selectObjects(untyped, loading: Self.loadsFetchedRows(untyped))
        if untyped.shouldRefreshRefetchedObjects { refreshRefetched(objects) }
        prefetchRelationships(prefetching, of: objects)
        // One batched load instead of a fault fired per object, unless every object was loaded as it was made:
        // a pass only to find no fault met each object again after it left the processor's caches (a first-level
        // miss an object at 100k).
        if !untyped.returnsObjectsAsFaults && !loaded { fulfillFaults(objects) }
        return Self.typed(objects)
    }

    /// A fetch whose objects are made a batch at a time as they are read:
    /// Core Data's batch-faulting array. With `fetchBatchSize` > 0 and no
    /// unsaved changes to merge, the fetch selects only the keys of the
    /// matching records (12 bytes a row for SQLite); reading an element loads
    /// its batch (one record read per store, prefetching included) and lets
    /// the previous batch go, so walking a million objects keeps one batch in
    /// memory — as long as the caller keeps no references either. Otherwise
    /// (no batch size, other result types, unsaved changes) it holds the
    /// result of `fetch(_:)`. Use it on the context's queue, like its objects.
    public func fetchBatched<T>(_ request: NSFetchRequest<T>) throws -> BatchFaultingArray<T> {
        let untyped = request.untyped
        guard untyped.resultType == .managedObjectResultType, untyped.fetchBatchSize > 0, parent == nil,
              !(untyped.includesPendingChanges && hasChanges) else {
            return BatchFaultingArray(elements: try fetch(request))
        }
        let entity = resolveEntity(of: untyped)
        try FetchKeyPathCheck.check(untyped, entity: entity)
        let prefetching = untyped.relationshipKeyPathsForPrefetching ?? []
        if !prefetching.isEmpty { try FetchKeyPathCheck.checkPrefetching(prefetching, entity: entity) }
        // The store selects keys only; records are read per batch.
        let keys = untyped.copy(with: nil) as! NSFetchRequest<NSFetchRequestResult>
        keys.fetchBatchSize = 0
        keys.includesPropertyValues = false
        return BatchFaultingArray(context: self, ids: try storeSelection(keys, entity: entity), request: untyped)
    }

    /// `objects` as the fetch's result type. When that type is `NSManagedObject`
    /// or every object's own class, the array is the result as it is (class
    /// references either way; `as!` on arrays reuses the buffer likewise),
    /// where a cast per object through the runtime cost ~900 instructions a row.
    static func typed<T>(_ objects: [NSManagedObject]) -> [T] {
        guard !objects.isEmpty else { return [] }
        let type = ObjectIdentifier(T.self)
        if type == ObjectIdentifier(NSManagedObject.self)
            || objects.allSatisfy({ ObjectIdentifier(Swift.type(of: $0)) == type }) {
            return unsafeBitCast(objects, to: [T].self)
        }
        return objects.map(typed)
    }

    /// `object` as the fetch's result type, or a stop naming the class to register.
    static func typed<T>(_ object: NSManagedObject) -> T {
        // As the array's: no dynamic cast when `T` is the object's class or NSManagedObject. The cast is out of
        // line, as its `Optional<T>` metadata is looked up on entry (~330 instructions, unspecialized).
        let type = ObjectIdentifier(T.self)
        if type == ObjectIdentifier(NSManagedObject.self) || type == ObjectIdentifier(Swift.type(of: object)) {
            return unsafeBitCast(object, to: T.self)
        }
        return cast(object)
    }

    @inline(never)
    private static func cast<T>(_ object: NSManagedObject) -> T {
        guard let typed = object as? T else {
            preconditionFailure("Fetched an object of entity \(object.entity.name ?? "") of class \(Swift.type(of: object)), not \(T.self); register the class with NSManagedObject.register(_:)")
        }
        return typed
    }

    /// The number of objects `request` would return. Without unsaved changes
    /// and with one store, the store counts (SQLite: one `COUNT(*)`); otherwise
    /// it costs the fetch.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        // A copy: `untyped` is the caller's own request when it is untyped already. `copy(with:)` because
        // Foundation's `copy()` first casts the request to `NSCopying`: a conformance lookup ~540k
        // instructions the first time in a process.
        let untyped = request.untyped.copy(with: nil) as! NSFetchRequest<NSFetchRequestResult>
        untyped.resultType = .managedObjectIDResultType
        let entity = resolveEntity(of: untyped)
        let stores = self.stores(for: entity, untyped)
        let merges = untyped.includesPendingChanges && hasChanges
        if let parent, !merges {
            // The parent counts with its own unsaved changes, as if they were saved.
            untyped.includesPendingChanges = true
            return try askParent(parent) { try parent.count(for: untyped) }
        }
        if !merges, parent == nil, stores.count == 1, let coordinator = persistentStoreCoordinator {
            try FetchKeyPathCheck.check(untyped, entity: entity)
            return try readStores(coordinator) { _ in
                try stores[0].count(StoreFetch(entity: entity, request: untyped, appliesWindow: true))
            }
        }
        return try fetchObjects(untyped).count
    }

    /// The objects `request` selects, the unsaved ones merged in; with
    /// `loading`, the objects whose records the stores read with the
    /// selection are loaded from them as they are made.
    func fetchObjects(_ request: NSFetchRequest<NSFetchRequestResult>, loading: Bool = false) throws
        -> [NSManagedObject] {
        try selectObjects(request, loading: loading).objects
    }

    /// `fetchObjects(_:loading:)`, and whether every object is loaded: with
    /// `loading`, when the stores read every selected record (the objects
    /// were loaded from them as they were made; unsaved objects merged in
    /// are loaded already).
    private func selectObjects(_ request: NSFetchRequest<NSFetchRequestResult>, loading: Bool) throws
        -> (objects: [NSManagedObject], loaded: Bool) {
        let entity = resolveEntity(of: request)
        try FetchKeyPathCheck.check(request, entity: entity)
        let stores = self.stores(for: entity, request)
        let merges = request.includesPendingChanges && hasChanges
        // A parent answers for all stores at once, sorted and windowed.
        let oneSource = stores.count == 1 || (parent != nil && !stores.isEmpty)
        let selection = try select(request, entity: entity, from: stores, appliesWindow: !merges && oneSource)
        let selected = objects(for: selection, loading: loading)
        let loaded = loading && selection.rows.count == selection.ids.count
        guard merges || !oneSource else { return (selected, loaded) }
        var candidates = selected.filter { !$0.isDeleted }
        if merges {
            var seen = Set(candidates.map(ObjectIdentifier.init))
            let matchesEntity: (NSManagedObject) -> Bool = { object in
                object.entity === entity || (request.includesSubentities && object.entity.isKindOf(entity: entity))
            }
            for object in inserted.objects + updated.objects
            where !object.isDeleted && matchesEntity(object) && seen.insert(ObjectIdentifier(object)).inserted {
                candidates.append(object)
            }
        }
        return (try FetchEvaluation.filterAndSort(candidates, request: request, appliesWindow: true), loaded)
    }

    /// The IDs `request` selects from the stores alone (the caller checked
    /// that there are no pending changes to merge).
    private func storeSelection(_ request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription) throws -> StoreObjectIDs {
        let stores = self.stores(for: entity, request)
        guard stores.count > 1, parent == nil else {
            return try select(request, entity: entity, from: stores, appliesWindow: true).ids
        }
        return StoreObjectIDs(try fetchObjects(request).map(\.objectID))
    }

    /// What a fetch selected: the IDs in order and, when every store read
    /// them in the same pass, their rows in the row cache, paired by position.
    struct Selection {
        var ids: StoreObjectIDs
        var rows: [StoreRowCache.Row] = []

        init(ids: StoreObjectIDs, rows: [StoreRowCache.Row] = []) {
            self.ids = ids
            self.rows = rows
        }

        /// A selection read with its records: the IDs are made from the rows'
        /// records when asked for, so that no array of IDs is held beside the
        /// rows while the fetch makes its objects (8 bytes an object at the
        /// fetch's peak), and a context without a parent makes its objects
        /// from the records without making IDs.
        init(rows: [StoreRowCache.Row]) {
            self.rows = rows
            ids = StoreObjectIDs(count: rows.count) { rows[$0].recordIdentity.permanentRecord }
        }
    }

    /// What `stores` select for `request`, in each store's order, the
    /// stores one after the other; each store applies the window only when
    /// `appliesWindow`. The records come along when every store read them,
    /// cached inside the store access so that no save comes between a read
    /// and its caching.
    func select(_ request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription,
                        from stores: [NSPersistentStore], appliesWindow: Bool) throws -> Selection {
        if let parent {
            guard !stores.isEmpty else { return Selection(ids: StoreObjectIDs([])) }
            return try selectFromParent(parent, request, appliesWindow: appliesWindow)
        }
        guard let coordinator = persistentStoreCoordinator else { return Selection(ids: StoreObjectIDs([])) }
        return try readStores(coordinator) { cache in
            let results = try stores.map {
                try $0.execute(StoreFetch(entity: entity, request: request, appliesWindow: appliesWindow))
            }
            guard results.allSatisfy({ !$0.records.isEmpty || $0.ids.isEmpty }) else {
                return Selection(ids: results.count == 1 ? results[0].ids : StoreObjectIDs(results.flatMap(\.ids)))
            }
            let records = results.count == 1 ? results[0].records : results.flatMap(\.records)
            return Selection(rows: cache.rememberRead(contentsOf: records))
        }
    }

    /// The objects of a selection. A fault gets the row the fetch read, so
    /// firing it reads nothing from the store, and with `loading` it is
    /// loaded from that row at once (what `fulfillFaults` would do with the
    /// same row, found again in the row cache); loaded objects keep their
    /// values (`shouldRefreshRefetchedObjects` asks for new ones).
    /// Each object gets its row as it is made, in the same pass: a second
    /// pass over objects and rows found both out of the processor's caches
    /// in a large fetch.
    private func objects(for selection: Selection, loading: Bool) -> [NSManagedObject] {
        registered.reserveCapacity(forAdding: selection.ids.count)
        let rows = selection.rows, ids = selection.ids
        let record = parent == nil ? ids.record : nil
        return (0..<ids.count).map { position in
            let object: NSManagedObject
            if let record {
                let (family, primaryKey) = record(position)
                object = self.object(family, primaryKey: primaryKey)
            } else {
                object = self.object(with: ids[position])
            }
            if !rows.isEmpty, object.isFault {
                if loading { fulfill(object, with: rows[position]) } else { object.committedRow = rows[position] }
            }
            return object
        }
    }

    /// Whether `fetch(_:)` loads every object of `request`'s result right
    /// after selecting it, with nothing in between (no refresh of refetched
    /// objects, no relationship prefetching), so that objects can be loaded
    /// as they are made.
    private static func loadsFetchedRows(_ request: NSFetchRequest<NSFetchRequestResult>) -> Bool {
        request.resultType == .managedObjectResultType && !request.returnsObjectsAsFaults
            && !request.shouldRefreshRefetchedObjects && (request.relationshipKeyPathsForPrefetching ?? []).isEmpty
    }

    /// The stores `request` searches: its `affectedStores`, or all, that hold the entity.
    func stores(for entity: NSEntityDescription, _ request: NSFetchRequest<NSFetchRequestResult>)
        -> [NSPersistentStore] {
        (request.affectedStores ?? persistentStoreCoordinator?.persistentStores ?? []).filter { store in
            storeEntities(of: entity, request).contains(where: store.holds)
        }
    }

    /// `shouldRefreshRefetchedObjects`: objects that were already loaded get
    /// their records' current values (read from the store, not the row
    /// cache), with their unsaved changes kept on top, as
    /// `refresh(_:mergeChanges: true)` does.
    private func refreshRefetched(_ objects: [NSManagedObject]) {
        let loaded = objects.filter { !$0.isFault && !$0.isInsertedFlag && !$0.isInaccessible }
        let rows = readRows(loaded.map(\.objectID))
        for object in loaded {
            guard let row = rows[object.objectID] else { continue }
            event.refreshed.append(object)
            reload(object, from: row)
        }
    }

    /// `relationshipKeyPathsForPrefetching`: for each key path, step by step,
    /// loads the current objects (one read per store and batch; for SQLite
    /// usually the fetch's read-ahead), gathers the destinations of the
    /// step's relationship and loads those still faults the same way, then
    /// continues from them. Touching a prefetched relationship then fires no
    /// fault per object.
    func prefetchRelationships(_ paths: [String], of objects: [NSManagedObject]) {
        for path in paths {
            var current = objects
            for name in path.split(separator: ".").map(String.init) {
                fulfillFaults(current)
                var seen = Set<ObjectIdentifier>(), next: [NSManagedObject] = []
                for object in current where !object.isFault && !object.isInaccessible {
                    guard let relationship = object.entity.relationshipsByName[name] else { continue }
                    // The first owner still unread reads them all, one query per 500 owners.
                    if relationship.isToMany, object.values[object.values.layout.slot(of: relationship)].isUnread {
                        readToManyFaults(of: current, only: relationship)
                    }
                    let destinations = relationship.isToMany
                        ? object.related(name).objects : object.destination(name).map { [$0] } ?? []
                    for destination in destinations where seen.insert(ObjectIdentifier(destination)).inserted {
                        next.append(destination)
                    }
                }
                current = next
            }
            fulfillFaults(current)
        }
    }

    /// The entity of `request`, looked up by name in the coordinator's model.
    func resolveEntity(of request: NSFetchRequest<NSFetchRequestResult>) -> NSEntityDescription {
        if let entity = request.entity { return entity }
        guard let name = request.entityName,
              let entity = withModel({ $0.entity(named: name) }) ?? nil else {
            preconditionFailure("A fetch request must name an entity of the context's model (got \(request.entityName ?? "nil"))")
        }
        return entity
    }

    private func storeEntities(of entity: NSEntityDescription, _ request: NSFetchRequest<NSFetchRequestResult>) -> [NSEntityDescription] {
        guard request.includesSubentities else { return [entity] }
        return [entity] + entity.subentities.flatMap { storeEntities(of: $0, request) }
    }

    /// Dictionary results (see ``DictionaryResults``): computed from the
    /// stores' records, as in Core Data they reflect saved data only.
    private func dictionaries(for request: NSFetchRequest<NSFetchRequestResult>) throws -> [NSDictionary] {
        if let parent { return try askParent(parent) { try parent.fetch(request) }.map { $0 as! NSDictionary } }
        let copy = request.untyped.copy(with: nil) as! NSFetchRequest<NSFetchRequestResult>
        copy.includesPendingChanges = false
        // Groups, distinct results and the window are formed from all selected records.
        copy.fetchOffset = 0
        copy.fetchLimit = 0
        copy.resultType = .managedObjectIDResultType
        let ids = try fetchObjects(copy).map(\.objectID)
        let entity = resolveEntity(of: request)
        guard let coordinator = persistentStoreCoordinator else { return [] }
        return try readStores(coordinator) { _ in
            try DictionaryResults.dictionaries(StoreRowLoader().rows(ids), request: request, entity: entity)
        }
    }
}
