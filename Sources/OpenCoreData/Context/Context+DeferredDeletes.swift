// Deleting a cascade's destinations without reading their records, when
// nothing of their own needs their values (issue 13: "propagating a delete
// fires a destination's fault only when its rules need its values").
//
// A photo deleted through its album's Cascade has one rule of its own, the
// Nullify of its album, whose destination is that album: the owner the
// to-many read found it through. Firing its fault read its whole record
// (~8k instructions a photo of a 1,000-photo cascade, with the row cached
// and the object filled), and clearing the album from each photo and each
// photo from the album cost ~3.4k more. Here the to-many read takes each
// destination's key and version only; the owner lets go of its deleted
// destinations at once, and each destination stays a fault whose own side
// (its to-one cleared) is done if its fault fires before the save, so that
// what the object shows is what running the rule at once gives. The save
// deletes its row by key at the version read, as for a fired fault.

/// How a to-many read reads the destinations besides their keys.
enum DestinationReading {
    case keys
    /// Their records, kept in the row cache: the destinations' own rules read their values.
    case records
    /// Their rows' versions: the destinations are deleted without their values.
    case versions
}

/// What `readToManyFaults` read beyond the owners' destinations.
struct ToManyRead {
    /// The rows of destinations read with their records; cached while held.
    var rows: [StoreRowCache.Row] = []
    /// The destinations read with their versions, by key.
    var unread: [ObjectKey: UnreadDestination] = [:]
}

/// A destination read with its version only, with the owner it was read through.
struct UnreadDestination {
    let version: Int64
    let owner: NSManagedObject
    /// The owner's to-many relationship.
    let via: NSRelationshipDescription
    /// Its inverse, the destination's to-one.
    let inverse: NSRelationshipDescription
}

/// A deleted object left a fault: the version the save's delete requires
/// and the to-one its own Nullify clears if its fault fires before the save.
struct DeferredDelete {
    let version: Int64
    let inverse: NSRelationshipDescription
}

extension NSManagedObjectContext {
    /// How a wave of deletes reads the destinations of `relationship`:
    /// versions only when deleting them needs nothing of their own values
    /// (``deletesWithoutValues(_:)``), records when their rules go on to
    /// change them, keys otherwise.
    func destinationReading(_ relationship: NSRelationshipDescription) -> DestinationReading {
        switch relationship.deleteRule {
        case .cascadeDeleteRule:
            undoManager == nil && Self.deletesWithoutValues(relationship) ? .versions : .records
        case .nullifyDeleteRule:
            relationship.inverseRelationship != nil ? .records : .keys
        case .denyDeleteRule, .noActionDeleteRule:
            .keys
        }
    }

    /// Whether the destinations `relationship` cascades to can be deleted as
    /// faults: a to-many whose inverse is a to-one, to an entity without
    /// sub-entities whose objects' class runs no code of its own when they
    /// are deleted (`ClassOverrides.customizeDeletion`: a plain
    /// `NSManagedObject`, or a class like Xcode's generated ones), whose
    /// relationships are that inverse (Nullify or No Action: its destination
    /// is the owner, deleted) and others with No Action. An undo manager
    /// needs the deleted objects' values, so a context with one reads them.
    static func deletesWithoutValues(_ relationship: NSRelationshipDescription) -> Bool {
        guard relationship.isToMany, let inverse = relationship.inverseRelationship, !inverse.isToMany,
              inverse.deleteRule == .nullifyDeleteRule || inverse.deleteRule == .noActionDeleteRule,
              let destination = relationship.destinationEntity, destination.subentities.isEmpty,
              !ClassOverrides.customizeDeletion(ManagedObjectClasses.objectClass(for: destination)) else {
            return false
        }
        return destination.relationshipsInNameOrder.allSatisfy { other in
            other.name == inverse.name || other.deleteRule == .noActionDeleteRule
        }
    }

    /// Leaves as faults the objects of `wave` that were read as `unread`
    /// destinations and are still faults of a class that runs no code of its
    /// own when deleted: each owner lets go of its deleted destinations now,
    /// and each destination's own side waits for its fault
    /// (``finishDeferredDelete(of:)``). Returns the rest of the wave, whose
    /// rules run as usual.
    func deferDeletes(in wave: [NSManagedObject], unread: [ObjectKey: UnreadDestination]) -> [NSManagedObject] {
        var rest: [NSManagedObject] = []
        // By owner: a cascade deletes an owner's destinations one after another, so a group ends when the
        // owner changes (an owner met again makes a group of its own, removed the same way).
        var owner: NSManagedObject?, via: NSRelationshipDescription?, gone: [NSManagedObject] = []
        func letGo() {
            if let owner, let via, !gone.isEmpty { owner.removeDestinations(gone, ofOneSide: via) }
            gone.removeAll(keepingCapacity: true)
        }
        deferredDeletes.reserveCapacity(deferredDeletes.count + wave.count)
        // Whether the object's class runs code of its own when deleted, kept for the last class asked about, as
        // `validateChanges` keeps whether a class validates (~90 instructions an object of a class of its own).
        // Written out in both places: a shared type holding the answer made the compiler check the callers'
        // other locals for exclusive access at run time, ~150 instructions an object in `validateChanges`.
        var lastClass: ObjectIdentifier?, classCustomizes = true
        func customizesDeletion(_ object: NSManagedObject) -> Bool {
            let objectClass = ObjectIdentifier(type(of: object))
            if objectClass != lastClass {
                lastClass = objectClass
                classCustomizes = ClassOverrides.customizeDeletion(type(of: object))
            }
            return classCustomizes
        }
        for object in wave {
            guard object.isDeletedFlag, object.isFault, !customizesDeletion(object),
                  let read = unread[ObjectKey(object.objectID)] else {
                rest.append(object)
                continue
            }
            deferredDeletes[ObjectAddress(object)] = DeferredDelete(version: read.version, inverse: read.inverse)
            if read.owner !== owner || read.via !== via {
                letGo()
                (owner, via) = (read.owner, read.via)
            }
            gone.append(object)
        }
        letGo()
        return rest
    }

    /// Runs what is left of a deferred delete's rules once `object`'s fault
    /// fired: its Nullify clears the to-one (the owner let go of it already).
    func finishDeferredDelete(of object: NSManagedObject) {
        guard let deferred = deferredDeletes.removeValue(forKey: ObjectAddress(object)), object.isDeletedFlag,
              deferred.inverse.deleteRule == .nullifyDeleteRule else { return }
        object.clearDestinations(of: deferred.inverse)
    }
}
