// Key-value access to a managed object's properties. Reads fire the fault;
// writes check the value's type, record the change with the context and,
// for relationships, keep the inverse side in step.

extension NSManagedObject {
    /// The value of the property `key`: attribute values as Swift values,
    /// to-one relationships as the destination object, to-many as `NSSet`
    /// (`NSOrderedSet` when ordered). An unknown key stops the program.
    public func value(forKey key: String) -> Any? {
        checkContextConcurrency("reading \(entity.name ?? "").\(key)")
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        let slot = slot(key)
        // An attribute read here, one call and one move of the result fewer than through `publicValue`.
        if values.layout.kinds[slot] == .attribute { return values.anyValue(at: slot) }
        return publicValue(at: slot)
    }

    /// Sets the property `key`, recording the change and, for relationships,
    /// updating the inverse relationship of every object involved. A value of
    /// the wrong type or an unknown key stops the program.
    public func setValue(_ value: consuming Any?, forKey key: String) {
        checkContextConcurrency("setting \(entity.name ?? "").\(key)")
        // `slot(forKey:)` finds a literal key without hashing it; an attribute's type is the layout's, so that
        // the usual set (an attribute, a value of its type) neither retains nor casts the attribute. The layout
        // is read where it is needed rather than kept in a local, which the compiler retained across the calls
        // (two retains and releases, ~80 instructions a set).
        let slot = values.layout.slot(forKey: key)
        guard let slot, let type = values.layout.attributeTypes[slot] else {
            setProperty(value, forKey: key, of: slot.map { values.layout.properties[$0] } ?? property(named: key))
            return
        }
        // `storeChange` does what `willChangeValue` and `didChangeValue` would around it: it fires the fault and
        // keeps the event's baseline before the write, and records the change after it. Neither can be
        // overridden, so calling them too only repeated those checks (~60 instructions a set).
        // The object outlives the call: the closure need not retain it.
        storeChange(ValueCoercion.slotValue(value, type: type) { [unowned(unsafe) self] in self.attribute(at: slot) },
                    slot: slot)
    }

    /// The attribute in `slot`, for the cold path of a set that converts its value.
    private func attribute(at slot: Int) -> NSAttributeDescription {
        values.layout.properties[slot] as! NSAttributeDescription
    }

    /// `setValue(_:forKey:)` for a property other than an attribute: a relationship, or one that can't be set.
    private func setProperty(_ value: consuming Any?, forKey key: String, of property: NSPropertyDescription) {
        if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
            // A change records itself (`setDestination` stores it with `storeChange`), without the checks of
            // `willChangeValue` and `didChangeValue` around it (~55 instructions a set); a set to the current
            // destination still counts as a change, as it does through them.
            if !setDestination(checkedDestination(value, for: relationship), of: relationship) {
                willChangeValue(forKey: key)
                didChangeValue(forKey: key)
            }
            return
        }
        willChangeValue(forKey: key)
        defer { didChangeValue(forKey: key) }
        switch property {
        case let relationship as NSRelationshipDescription where relationship.isToMany:
            replaceDestinations(of: relationship, with: destinations(value, for: relationship))
        default:
            preconditionFailure("Property \(key) of entity \(entity.name ?? "") can't be set")
        }
    }

    /// The value at a dotted key path such as `album.name`. Through a to-many
    /// step the result is the set of values (ordered set for ordered relationships).
    public func value(forKeyPath keyPath: String) -> Any? {
        var current: Any? = self
        var remaining = keyPath.split(separator: ".").map(String.init)
        while !remaining.isEmpty {
            let key = remaining.removeFirst()
            switch current {
            case let object as NSManagedObject: current = object.value(forKey: key)
            case let set as NSOrderedSet:
                let path = ([key] + remaining).joined(separator: ".")
                return NSOrderedSet(array: set.array.compactMap { ($0 as? NSManagedObject)?.value(forKeyPath: path) })
            case let set as NSSet:
                let path = ([key] + remaining).joined(separator: ".")
                return NSSet(array: set.allObjects.compactMap { ($0 as? NSManagedObject)?.value(forKeyPath: path) })
            default: return nil
            }
        }
        return current
    }

    /// The stored value of `key` without access notifications; to-many as a set.
    public func primitiveValue(forKey key: String) -> Any? {
        fireFaultIfNeeded()
        return publicValue(at: slot(key))
    }

    /// Stores `value` for `key` without change notifications and without
    /// touching inverse relationships (the caller keeps the graph consistent),
    /// as Core Data's primitive setters do. The type is still checked.
    ///
    /// Not a change by itself, as in Core Data, which learns of changes from
    /// `didChangeValue(forKey:)`: a custom accessor brackets this call with
    /// `willChangeValue(forKey:)` and `didChangeValue(forKey:)`.
    public func setPrimitiveValue(_ value: consuming Any?, forKey key: String) {
        let slot = slot(key)
        let stored: SlotValue
        switch property(named: key) {
        case let attribute as NSAttributeDescription:
            stored = ValueCoercion.slotValue(value, for: attribute)
        case let relationship as NSRelationshipDescription where relationship.isToMany:
            stored = .objects(ManagedObjectSet(destinations(value, for: relationship)))
        case let relationship as NSRelationshipDescription:
            stored = checkedDestination(value, for: relationship).map(SlotValue.object) ?? .none
        default:
            preconditionFailure("Property \(key) of entity \(entity.name ?? "") can't be set")
        }
        fireFaultIfNeeded()
        values[slot] = stored
    }

    /// Fires the fault before `key` is read. Subclasses calling primitive
    /// accessors call this first, as in Core Data.
    public func willAccessValue(forKey key: String?) { fireFaultIfNeeded() }
    /// Marks the end of a read started with `willAccessValue(forKey:)`.
    public func didAccessValue(forKey key: String?) {}
    /// Fires the fault and keeps the event's starting values before `key` changes.
    public func willChangeValue(forKey key: String) {
        fireFaultIfNeeded()
        // What `changedValuesForCurrentEvent()` compares with when the change is a primitive set.
        if eventBaseline == nil, hasContext { eventBaseline = values.slots }
    }
    /// Marks the end of a change started with `willChangeValue(forKey:)`:
    /// the context records the object as changed when `key` is one of its properties.
    public func didChangeValue(forKey key: String) {
        guard !isFaultStorage else { return }
        withUnretainedContext { context in
            // After `setValue` the change is recorded already: no lookup of the key.
            guard !context.hasRecordedChange(of: self), values.layout.slotsByName[key] != nil else { return }
            context.objectDidChange(self)
        }
    }

    /// A mutable set whose changes are changes of the to-many relationship
    /// `key`, inverse maintenance included. Each change costs what `setValue` does.
    public func mutableSetValue(forKey key: String) -> NSMutableSet {
        guard let relationship = property(named: key) as? NSRelationshipDescription, relationship.isToMany else {
            preconditionFailure("\(key) of entity \(entity.name ?? "") is not a to-many relationship")
        }
        return RelationshipMutableSet(object: self, relationship: relationship)
    }

    /// A mutable ordered set whose changes are changes of the ordered to-many
    /// relationship `key`, inverse maintenance included.
    public func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        guard let relationship = property(named: key) as? NSRelationshipDescription, relationship.isOrdered else {
            preconditionFailure("\(key) of entity \(entity.name ?? "") is not an ordered to-many relationship")
        }
        return RelationshipMutableOrderedSet(object: self, relationship: relationship)
    }

    // MARK: Internals shared with the context

    func property(named key: String) -> NSPropertyDescription {
        // Through the layout's key table (no hashing for a key spelled as in code): a subclass's
        // validation asks this for every property of every saved object.
        let layout = values.layout
        if let slot = layout.slot(forKey: key) { return layout.properties[slot] }
        guard let property = entity.propertiesByName[key] else {
            preconditionFailure("[<\(Swift.type(of: self)) \(objectID)> valueForUndefinedKey:]: the entity \(entity.name ?? "") is not key value coding-compliant for the key \"\(key)\".")
        }
        return property
    }

    /// The value `primitiveValue(forKey:)` returns for the property in `slot`
    /// of a loaded object: what the slot holds as its layout's kind says.
    func publicValue(at slot: Int) -> Any? {
        // The layout read where needed, not kept in a local the compiler would retain (see `setValue`).
        switch values.layout.kinds[slot] {
        case .attribute: return values.anyValue(at: slot)
        case .toOne: return destination(slot)
        case .toMany: return resolvedToMany(slot).objects.asNSSet
        case .orderedToMany: return resolvedToMany(slot).objects.asNSOrderedSet
        case .fetched:
            return fetchedValue(values.layout.properties[slot] as! NSFetchedPropertyDescription, slot: slot)
        }
    }

    /// The slot of the property named `key`; an unknown key stops the
    /// program with Core Data's message.
    @inline(__always)
    func slot(_ key: String) -> Int {
        values.layout.tableSlot(forKey: key) ?? slot(ofUnlistedKey: key)
    }

    /// `slot(_:)` for a key the layout's key table does not resolve: one
    /// spelled in another representation (hashed), or no property's name
    /// (which stops the program).
    private func slot(ofUnlistedKey key: String) -> Int {
        values.layout.slot(forKey: key) ?? values.layout.slot(of: property(named: key))
    }

    /// The destinations of the to-many relationship `key` (loaded values only).
    func related(_ key: String) -> ManagedObjectSet { resolvedToMany(slot(key)) }

    /// The destination of the to-one relationship `key` (loaded values only).
    func destination(_ key: String) -> NSManagedObject? { destination(slot(key)) }

    /// Stores `value` under `key` and records the change with the context.
    func storeChange(_ value: consuming SlotValue, forKey key: String) { storeChange(value, slot: slot(key)) }

    /// Stores `value` in `slot` and records the change with the context.
    func storeChange(_ value: consuming SlotValue, slot: Int) {
        fireFaultIfNeeded()
        if eventBaseline == nil { eventBaseline = values.slots }
        values[slot] = consume value
        withUnretainedContext { $0.objectDidChange(self) }
    }

    private func checkedDestination(_ value: Any?, for relationship: NSRelationshipDescription) -> NSManagedObject? {
        // An object given as `NSManagedObject` (as code holding plain objects passes it) is read where it lies:
        // unwrapping the `Any` and casting it through the runtime cost ~600 instructions a set.
        if let object = AnyContainer.read(optional: value, { container in
            container.isStored(as: NSManagedObject.self) ? container.load(as: NSManagedObject.self) : nil
        }) {
            checkDestination(object, for: relationship)
            return object
        }
        guard let value = ValueCoercion.unwrapped(value) else { return nil }
        guard let object = value as? NSManagedObject else {
            preconditionFailure("Unacceptable type of value for to-one relationship: property = \"\(relationship.name)\"; entity = \"\(entity.name ?? "")\"; desired type = \(relationship.destinationEntity?.name ?? ""); given type = \(Swift.type(of: value)).")
        }
        checkDestination(object, for: relationship)
        return object
    }

    func checkDestination(_ object: NSManagedObject, for relationship: NSRelationshipDescription) {
        if let destination = relationship.destinationEntity, !object.entity.isKindOf(entity: destination) {
            preconditionFailure("Unacceptable type of value for relationship: property = \"\(relationship.name)\"; entity = \"\(entity.name ?? "")\"; desired type = \(destination.name ?? ""); given type = \(object.entity.name ?? "").")
        }
        if !object.sharesContext(with: self) {
            preconditionFailure("Illegal attempt to establish a relationship '\(relationship.name)' of entity \(entity.name ?? "") between objects in different contexts")
        }
    }

    private func destinations(_ value: Any?, for relationship: NSRelationshipDescription) -> [NSManagedObject] {
        let elements: [Any]
        switch ValueCoercion.unwrapped(value) {
        case nil: elements = []
        case let set as NSOrderedSet where relationship.isOrdered: elements = set.array
        case let set as NSSet where !relationship.isOrdered: elements = set.allObjects
        case let set as Set<NSManagedObject> where !relationship.isOrdered: elements = Array(set)
        case let other?:
            preconditionFailure("Unacceptable type of value for to-many relationship: property = \"\(relationship.name)\"; entity = \"\(entity.name ?? "")\"; desired type = \(relationship.isOrdered ? "NSOrderedSet" : "NSSet"); given type = \(Swift.type(of: other)).")
        }
        return elements.map { element in
            guard let object = element as? NSManagedObject else {
                preconditionFailure("Relationship \(relationship.name) of entity \(entity.name ?? "") holds managed objects, not \(Swift.type(of: element))")
            }
            checkDestination(object, for: relationship)
            return object
        }
    }
}
