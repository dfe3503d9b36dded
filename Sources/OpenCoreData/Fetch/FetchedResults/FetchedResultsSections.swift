/// A controller's results: sections of entries, each sorted, sections in the
/// order of their objects, and every entry findable by its object.
///
/// Placing or finding one entry costs a binary search; adding or removing
/// it shifts the rest of its section's array (a memory move, no comparisons).
/// Adding or removing a section renumbers the sections after it.
struct FetchedResultsSections {
    let order: FetchedResultsOrder
    private(set) var sections: [FetchedResultsSection] = []
    private var sectionsByName: [String: FetchedResultsSection] = [:]
    private var entries: [ObjectIdentifier: FetchedResultsEntry] = [:]
    private let indexTitle: (String) -> String?

    init(order: FetchedResultsOrder, indexTitle: @escaping (String) -> String?) {
        self.order = order
        self.indexTitle = indexTitle
    }

    /// The capitalised first letter of `sectionName`, Core Data's default index title.
    static func defaultIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    var count: Int { entries.count }

    func entry(for object: NSManagedObject) -> FetchedResultsEntry? { entries[ObjectIdentifier(object)] }

    /// Sections from `sorted` entries, cut where the section name changes.
    /// Throws, as Core Data's fetch fails, when a name comes back after
    /// another: the first sort descriptor does not order the sections.
    mutating func load(_ sorted: [FetchedResultsEntry]) throws {
        sections = []
        sectionsByName = [:]
        entries = Dictionary(uniqueKeysWithValues: sorted.map { (ObjectIdentifier($0.object), $0) })
        var start = 0
        while start < sorted.count {
            let name = sorted[start].sectionName
            var end = start + 1
            while end < sorted.count && sorted[end].sectionName == name { end += 1 }
            guard sectionsByName[name] == nil else {
                throw NSError.coreData(NSCoreDataError, "The fetched object at index \(start) has an out of order section name '\(name)'. Objects must be sorted by section name; make the first sort descriptor order by the section key path.")
            }
            let section = FetchedResultsSection(name: name, indexTitle: indexTitle(name),
                                                entries: Array(sorted[start..<end]), index: sections.count)
            sections.append(section)
            sectionsByName[name] = section
            start = end
        }
        if order.sectionNameKeyPath == nil && sections.isEmpty {
            // Without a section key path there is always one section, even
            // empty, so inserting the first object reports no section change.
            let section = FetchedResultsSection(name: "", indexTitle: nil, entries: [], index: 0)
            sections = [section]
            sectionsByName[""] = section
        }
    }

    /// Where `entry` is now. Costs a binary search.
    func indexPath(of entry: FetchedResultsEntry) -> IndexPath? {
        guard let section = sectionsByName[entry.sectionName] else { return nil }
        let row = order.insertionIndex(of: entry, in: section.entries)
        guard row < section.entries.count, section.entries[row] === entry else { return nil }
        return IndexPath(item: row, section: section.index)
    }

    /// Takes `entry` out of its section, which stays even when empty (see
    /// `removeEmptySections`). Costs a binary search and a memory move.
    mutating func remove(_ entry: FetchedResultsEntry) {
        entries[ObjectIdentifier(entry.object)] = nil
        guard let section = sectionsByName[entry.sectionName] else { return }
        let row = order.insertionIndex(of: entry, in: section.entries)
        if row < section.entries.count, section.entries[row] === entry { section.entries.remove(at: row) }
    }

    /// Puts `entry` in its section if that section exists; returns false otherwise.
    mutating func insertIntoExistingSection(_ entry: FetchedResultsEntry) -> Bool {
        guard let section = sectionsByName[entry.sectionName] else { return false }
        section.entries.insert(entry, at: order.insertionIndex(of: entry, in: section.entries))
        entries[ObjectIdentifier(entry.object)] = entry
        return true
    }

    /// Drops sections left without entries; returns them with their indexes before.
    mutating func removeEmptySections() -> [FetchedResultsSection] {
        guard order.sectionNameKeyPath != nil else { return [] }
        let empty = sections.filter { $0.entries.isEmpty }
        guard !empty.isEmpty else { return [] }
        sections.removeAll { $0.entries.isEmpty }
        for section in empty { sectionsByName[section.name] = nil }
        renumber()
        return empty
    }

    /// A new section holding `sortedEntries` (all of one new name), placed
    /// among the others by its first entry. Costs a binary search of the sections.
    mutating func insertSection(with sortedEntries: [FetchedResultsEntry]) -> FetchedResultsSection {
        let name = sortedEntries[0].sectionName
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if order.precedes(sections[middle].entries[0], sortedEntries[0]) { low = middle + 1 } else { high = middle }
        }
        let section = FetchedResultsSection(name: name, indexTitle: indexTitle(name), entries: sortedEntries, index: low)
        sections.insert(section, at: low)
        sectionsByName[name] = section
        for entry in sortedEntries { entries[ObjectIdentifier(entry.object)] = entry }
        renumber(from: low)
        return section
    }

    private func renumber(from start: Int = 0) {
        for index in start..<sections.count { sections[index].index = index }
    }
}
