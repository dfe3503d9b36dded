/// Section identifiers and, per section, item identifiers, in order: the
/// shape of UIKit's `NSDiffableDataSourceSnapshot`, which Linux lacks.
///
/// A fetched-results controller hands one to its delegate with section names
/// as sections and object IDs as items (docs/Differences.md).
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable>: Equatable {
    /// The sections, in order.
    public private(set) var sectionIdentifiers: [SectionIdentifierType] = []
    private var itemsBySection: [[ItemIdentifierType]] = []

    /// An empty snapshot.
    public init() {}

    /// How many sections there are.
    public var numberOfSections: Int { sectionIdentifiers.count }
    /// How many items all sections hold.
    public var numberOfItems: Int { itemsBySection.reduce(0) { $0 + $1.count } }
    /// Every item, section after section. Costs an array of all items.
    public var itemIdentifiers: [ItemIdentifierType] { itemsBySection.flatMap { $0 } }

    /// The items of `section`, in order; empty for an unknown section.
    public func itemIdentifiers(inSection section: SectionIdentifierType) -> [ItemIdentifierType] {
        indexOfSection(section).map { itemsBySection[$0] } ?? []
    }

    /// How many items `section` holds.
    public func numberOfItems(inSection section: SectionIdentifierType) -> Int {
        itemIdentifiers(inSection: section).count
    }

    /// The position of `section`, or nil. Costs a scan of the sections.
    public func indexOfSection(_ section: SectionIdentifierType) -> Int? {
        sectionIdentifiers.firstIndex(of: section)
    }

    /// The position of `item` among all items, or nil. Costs a scan.
    public func indexOfItem(_ item: ItemIdentifierType) -> Int? {
        itemIdentifiers.firstIndex(of: item)
    }

    /// The section holding `item`, or nil. Costs a scan.
    public func sectionIdentifier(containingItem item: ItemIdentifierType) -> SectionIdentifierType? {
        itemsBySection.firstIndex { $0.contains(item) }.map { sectionIdentifiers[$0] }
    }

    /// Adds empty sections at the end.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        sectionIdentifiers += identifiers
        itemsBySection += identifiers.map { _ in [] }
    }

    /// Adds items at the end of `section`, or of the last section when nil.
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection section: SectionIdentifierType? = nil) {
        guard let index = section.map(indexOfSection) ?? (itemsBySection.isEmpty ? nil : itemsBySection.count - 1) else {
            preconditionFailure("appendItems: there is no section \(section.map { "\($0)" } ?? "") to append to")
        }
        itemsBySection[index] += identifiers
    }
}

extension NSDiffableDataSourceSnapshot: @unchecked Sendable where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}

/// The snapshot a fetched-results controller reports: section names and
/// object IDs (Apple's `NSDiffableDataSourceSnapshotReference`, bridged to
/// `NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`).
public typealias NSDiffableDataSourceSnapshotReference = NSDiffableDataSourceSnapshot<String, NSManagedObjectID>
