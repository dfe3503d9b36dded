/// Applies one change event to a controller's results and says what changed
/// as a table view's batch updates need it. Costs a few binary searches per
/// changed object, whatever the size of the results.
///
/// An updated object whose sort or section values changed is a move when
/// its index path changed (reference §6.2: the change affected its position)
/// and also when only its place among the objects that did not move changed:
/// replaying deletes (old index paths), then inserts (new ones), with moves
/// as both, on the old sections must give the new sections exactly, and
/// updates must stay where they are. Otherwise it is an update.
struct FetchedResultsEvent {
    private var removed: [(entry: FetchedResultsEntry, path: IndexPath)] = []
    private var inserted: [FetchedResultsEntry] = []
    private var updated: [(entry: FetchedResultsEntry, path: IndexPath)] = []
    private var repositioned: [(entry: FetchedResultsEntry, path: IndexPath, keys: [Any?], sectionName: String)] = []
    /// Entries that may change place; the others keep their relative order.
    private var unsettled = Set<ObjectIdentifier>()

    /// Sorts `touched` (inserted, updated, refreshed objects) and `gone`
    /// (deleted, invalidated ones) into the event's changes, applies them to
    /// `results` and returns them. `matches` says whether an object belongs
    /// in the results now; `nextSequence` numbers entries of new objects.
    static func apply(touched: [NSManagedObject], gone: [NSManagedObject], to results: inout FetchedResultsSections,
                      matches: (NSManagedObject) -> Bool, nextSequence: inout Int) -> FetchedResultsChanges {
        var event = FetchedResultsEvent()
        var seen = Set<ObjectIdentifier>()
        for object in gone where seen.insert(ObjectIdentifier(object)).inserted {
            if let entry = results.entry(for: object) { event.noteRemoval(of: entry, in: results) }
        }
        for object in touched where seen.insert(ObjectIdentifier(object)).inserted {
            let entry = results.entry(for: object)
            guard matches(object) else {
                if let entry { event.noteRemoval(of: entry, in: results) }
                continue
            }
            let keys = results.order.keys(of: object), sectionName = results.order.sectionName(of: object)
            guard let entry else {
                event.inserted.append(FetchedResultsEntry(object: object, keys: keys, sectionName: sectionName, sequence: nextSequence))
                nextSequence += 1
                continue
            }
            guard let path = results.indexPath(of: entry) else { continue }
            if sectionName == entry.sectionName && results.order.sameKeys(keys, as: entry) {
                event.updated.append((entry, path))
            } else {
                event.repositioned.append((entry, path, keys, sectionName))
                event.unsettled.insert(ObjectIdentifier(entry))
            }
        }
        return event.apply(to: &results)
    }

    private mutating func noteRemoval(of entry: FetchedResultsEntry, in results: FetchedResultsSections) {
        guard let path = results.indexPath(of: entry) else { return }
        removed.append((entry, path))
        unsettled.insert(ObjectIdentifier(entry))
    }

    private mutating func apply(to results: inout FetchedResultsSections) -> FetchedResultsChanges {
        let oldAnchors = repositioned.map { anchor(of: $0.entry, at: $0.path, in: results) }
        for (entry, _) in removed { results.remove(entry) }
        for (entry, _, keys, sectionName) in repositioned {
            results.remove(entry)
            entry.keys = keys
            entry.sectionName = sectionName
        }
        for entry in inserted { unsettled.insert(ObjectIdentifier(entry)) }
        var newSectionEntries: [String: [FetchedResultsEntry]] = [:]
        for entry in inserted + repositioned.map(\.entry) where !results.insertIntoExistingSection(entry) {
            newSectionEntries[entry.sectionName, default: []].append(entry)
        }
        var changes = FetchedResultsChanges()
        for section in results.removeEmptySections() {
            changes.sections.append(.init(section: section, index: section.index, type: .delete))
        }
        let newSections = newSectionEntries.values.map { results.insertSection(with: $0.sorted(by: results.order.precedes)) }
        for section in newSections.sorted(by: { $0.index < $1.index }) {
            changes.sections.append(.init(section: section, index: section.index, type: .insert))
        }

        let moved = movedEntries(oldAnchors: oldAnchors, in: results)
        var moves: [FetchedResultsChanges.ObjectChange] = [], updates: [FetchedResultsChanges.ObjectChange] = []
        for (entry, path, _, _) in repositioned {
            let newPath = results.indexPath(of: entry)
            if moved.contains(ObjectIdentifier(entry)) {
                moves.append(.init(object: entry.object, type: .move, indexPath: path, newIndexPath: newPath))
            } else {
                updates.append(.init(object: entry.object, type: .update, indexPath: path, newIndexPath: newPath))
            }
        }
        for (entry, path) in updated {
            updates.append(.init(object: entry.object, type: .update, indexPath: path, newIndexPath: results.indexPath(of: entry)))
        }
        changes.objects = removed.sorted { $0.path < $1.path }.map { .init(object: $0.entry.object, type: .delete, indexPath: $0.path, newIndexPath: nil) }
            + inserted.map { .init(object: $0.object, type: .insert, indexPath: nil, newIndexPath: results.indexPath(of: $0)) }
                .sorted { $0.newIndexPath! < $1.newIndexPath! }
            + moves.sorted { $0.newIndexPath! < $1.newIndexPath! }
            + updates.sorted { $0.indexPath! < $1.indexPath! }
        return changes
    }

    /// Where an entry sits among the settled entries: its section and the
    /// settled entry just before it (nil at the section's start).
    private struct Anchor: Hashable {
        let sectionName: String
        let previous: ObjectIdentifier?
    }

    private func anchor(of entry: FetchedResultsEntry, at path: IndexPath, in results: FetchedResultsSections) -> Anchor {
        let entries = results.sections[path.section].entries
        var row = path.item - 1
        while row >= 0 && unsettled.contains(ObjectIdentifier(entries[row])) { row -= 1 }
        return Anchor(sectionName: entry.sectionName, previous: row >= 0 ? ObjectIdentifier(entries[row]) : nil)
    }

    /// The repositioned entries to report as moves: those whose index path
    /// or anchor changed, and all of an anchor's entries when their order
    /// among themselves changed.
    private func movedEntries(oldAnchors: [Anchor], in results: FetchedResultsSections) -> Set<ObjectIdentifier> {
        var moved = Set<ObjectIdentifier>()
        var stayed: [Anchor: [(old: IndexPath, new: IndexPath, id: ObjectIdentifier)]] = [:]
        for (index, (entry, path, _, _)) in repositioned.enumerated() {
            guard let newPath = results.indexPath(of: entry) else { continue }
            let id = ObjectIdentifier(entry)
            if newPath == path && anchor(of: entry, at: newPath, in: results) == oldAnchors[index] {
                stayed[oldAnchors[index], default: []].append((path, newPath, id))
            } else {
                moved.insert(id)
            }
        }
        for group in stayed.values where group.count > 1 {
            let byOld = group.sorted { $0.old < $1.old }
            if zip(byOld, byOld.dropFirst()).contains(where: { $0.new > $1.new }) { moved.formUnion(group.map(\.id)) }
        }
        return moved
    }
}
