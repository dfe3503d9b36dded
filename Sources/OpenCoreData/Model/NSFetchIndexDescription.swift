/// An index a store may build for an entity (NSFetchIndexDescription.h).
/// Indexes are not part of the version hash.
open class NSFetchIndexDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The index's name, unique within its entity.
    public var name: String
    /// The indexed properties, in index order.
    public var elements: [NSFetchIndexElementDescription] {
        didSet { elements.forEach { $0.collectionIndex = self } }
    }
    /// The entity the index belongs to.
    public internal(set) var entity: NSEntityDescription? {
        get { entityReference.target }
        set { entityReference = ProxiedWeakReference(newValue?.referenceProxy) }
    }
    /// `entity`, held weakly through the entity's proxy (see `ReferenceProxy`).
    private var entityReference = ProxiedWeakReference<NSEntityDescription>(nil)

    /// An index named `name` over `elements` (none when nil); add it to an entity's `indexes`.
    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        self.elements.forEach { $0.collectionIndex = self }
    }

    /// A copy with copied elements and no entity.
    open func copy(with zone: NSZone? = nil) -> Any {
        NSFetchIndexDescription(name: name, elements: elements.map { $0.copy() as! NSFetchIndexElementDescription })
    }

    /// Whether `object` is an index with the same name and equal elements.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSFetchIndexDescription else { return false }
        return name == other.name && elements == other.elements
    }

    /// The hash of the name.
    open override var hash: Int { name.hashValue }
}

/// Whether an index is an ordinary B-tree or a spatial R-tree, with Apple's raw values.
public enum NSFetchIndexElementType: UInt, Sendable {
    /// An ordinary B-tree index, what the SQLite store creates (`CREATE INDEX`).
    case binary = 0
    /// A spatial R-tree index (Apple's, for ranges of numbers); read from and written to model files,
    /// but the SQLite store creates no index for it.
    case rTree = 1
}

/// One property of an index, with its order (NSFetchIndexElementDescription.h).
open class NSFetchIndexElementDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The name of the indexed property.
    public var propertyName: String?
    /// The indexed property, once the index belongs to an entity.
    public var property: NSPropertyDescription? {
        guard let propertyName, let entity = collectionIndex?.entity else { return nil }
        return entity.propertiesByName[propertyName]
    }
    /// Whether the element is a B-tree or an R-tree element.
    public var collationType: NSFetchIndexElementType
    /// Whether the index orders this property ascending (`false`: `DESC` in the SQLite index).
    public var isAscending: Bool
    weak var collectionIndex: NSFetchIndexDescription?

    /// An element indexing `property`.
    public convenience init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        self.init(propertyName: property.name, collationType: collationType)
    }

    /// An element indexing the property named `propertyName`.
    public init(propertyName: String, collationType: NSFetchIndexElementType = .binary, isAscending: Bool = true) {
        self.propertyName = propertyName
        self.collationType = collationType
        self.isAscending = isAscending
        super.init()
    }

    /// A copy without its index.
    open func copy(with zone: NSZone? = nil) -> Any {
        NSFetchIndexElementDescription(propertyName: propertyName ?? "", collationType: collationType, isAscending: isAscending)
    }

    /// Whether `object` names the same property with the same type and order.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSFetchIndexElementDescription else { return false }
        return propertyName == other.propertyName && collationType == other.collationType && isAscending == other.isAscending
    }

    /// The hash of the property name.
    open override var hash: Int { propertyName?.hashValue ?? 0 }
}
