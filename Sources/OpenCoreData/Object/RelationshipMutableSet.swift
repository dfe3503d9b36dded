/// The live set `mutableSetValue(forKey:)` returns: reads show the
/// relationship now, writes go through inverse maintenance and change tracking.
final class RelationshipMutableSet: NSMutableSet {
    private let object: NSManagedObject
    private let relationship: NSRelationshipDescription

    init(object: NSManagedObject, relationship: NSRelationshipDescription) {
        self.object = object
        self.relationship = relationship
        super.init(capacity: 0)
    }

    required override init(objects: UnsafePointer<AnyObject>?, count cnt: Int) {
        preconditionFailure("A relationship set can only be made by mutableSetValue(forKey:)")
    }

    required init(capacity numItems: Int) {
        preconditionFailure("A relationship set can only be made by mutableSetValue(forKey:)")
    }

    required init?(coder aDecoder: NSCoder) {
        preconditionFailure("A relationship set can't be decoded")
    }

    private var current: [NSManagedObject] { object.destinations(of: relationship) }

    override var count: Int { current.count }

    override func member(_ candidate: Any) -> Any? {
        guard let candidate = candidate as? NSManagedObject else { return nil }
        return current.first { $0 === candidate }
    }

    override func objectEnumerator() -> NSEnumerator { NSArray(array: current).objectEnumerator() }

    override func add(_ element: Any) { object.addDestination(managed(element), of: relationship) }

    override func remove(_ element: Any) {
        guard let element = element as? NSManagedObject else { return }
        object.removeDestination(element, of: relationship)
    }

    override func removeAllObjects() { object.replaceDestinations(of: relationship, with: []) }

    override func addObjects(from array: [Any]) { array.forEach(add) }

    private func managed(_ element: Any) -> NSManagedObject {
        guard let managed = element as? NSManagedObject else {
            preconditionFailure("Relationship \(relationship.name) holds managed objects, not \(Swift.type(of: element))")
        }
        object.checkDestination(managed, for: relationship)
        return managed
    }
}

/// The live ordered set `mutableOrderedSetValue(forKey:)` returns.
final class RelationshipMutableOrderedSet: NSMutableOrderedSet {
    private let object: NSManagedObject
    private let relationship: NSRelationshipDescription

    init(object: NSManagedObject, relationship: NSRelationshipDescription) {
        self.object = object
        self.relationship = relationship
        super.init(capacity: 0)
    }

    required override init(objects: UnsafePointer<AnyObject>?, count cnt: Int) {
        preconditionFailure("A relationship set can only be made by mutableOrderedSetValue(forKey:)")
    }

    required init(arrayLiteral elements: Any...) {
        preconditionFailure("A relationship set can only be made by mutableOrderedSetValue(forKey:)")
    }

    required init?(coder aDecoder: NSCoder) {
        preconditionFailure("A relationship set can't be decoded")
    }

    private var current: [NSManagedObject] { object.destinations(of: relationship) }

    override var count: Int { current.count }

    override func object(at idx: Int) -> Any { current[idx] }

    override func index(of candidate: Any) -> Int {
        guard let candidate = candidate as? NSManagedObject else { return NSNotFound }
        return current.firstIndex { $0 === candidate } ?? NSNotFound
    }

    override func insert(_ element: Any, at idx: Int) {
        object.addDestination(managed(element), of: relationship, at: idx)
    }

    override func removeObject(at idx: Int) { object.removeDestination(current[idx], of: relationship) }

    override func replaceObject(at idx: Int, with element: Any) {
        var objects = current
        objects[idx] = managed(element)
        object.replaceDestinations(of: relationship, with: objects)
    }

    override func add(_ element: Any) { insert(element, at: count) }

    override func remove(_ element: Any) {
        guard let element = element as? NSManagedObject else { return }
        object.removeDestination(element, of: relationship)
    }

    override func removeAllObjects() { object.replaceDestinations(of: relationship, with: []) }

    private func managed(_ element: Any) -> NSManagedObject {
        guard let managed = element as? NSManagedObject else {
            preconditionFailure("Relationship \(relationship.name) holds managed objects, not \(Swift.type(of: element))")
        }
        object.checkDestination(managed, for: relationship)
        return managed
    }
}
