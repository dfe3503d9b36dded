@testable import OpenCoreDataCore

/// A delegate that records every callback, as a table view data source would receive them.
final class FetchedResultsRecorder: NSObject, NSFetchedResultsControllerDelegate {
    enum Call {
        case willChange
        case section(name: String, index: Int, type: NSFetchedResultsChangeType)
        case object(NSManagedObject, type: NSFetchedResultsChangeType, indexPath: IndexPath?, newIndexPath: IndexPath?)
        case didChange
    }

    var calls: [Call] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        calls.append(.willChange)
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        calls.append(.section(name: sectionInfo.name, index: sectionIndex, type: type))
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        calls.append(.object(anObject as! NSManagedObject, type: type, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        calls.append(.didChange)
    }

    /// The calls since the last `take()`, emptying the record.
    func take() -> [Call] {
        defer { calls = [] }
        return calls
    }
}

/// A table view's model: section names and their objects.
struct TableModel: Equatable {
    var sections: [(name: String, objects: [ObjectIdentifier])]

    init<T>(_ controller: NSFetchedResultsController<T>) {
        sections = (controller.sections ?? []).map { section in
            (section.name, (section.objects ?? []).map { ObjectIdentifier($0 as AnyObject) })
        }
    }

    static func == (a: TableModel, b: TableModel) -> Bool {
        a.sections.count == b.sections.count && zip(a.sections, b.sections).allSatisfy { $0.name == $1.name && $0.objects == $1.objects }
    }

    /// What went wrong replaying `calls` as UITableView batch updates do
    /// (reference §6.2: row deletes at old index paths, section deletes,
    /// section inserts, row inserts at new index paths; a move is a delete
    /// and an insert; updates stay in place), or the resulting model.
    func replaying(_ calls: [FetchedResultsRecorder.Call]) -> Result<TableModel, ReplayError> {
        guard !calls.isEmpty else { return .success(self) }
        // Order: willChange, section changes, object changes, didChange (H-FRC).
        guard case .willChange = calls.first, case .didChange = calls.last else { return .failure("not framed by will/didChange") }
        var seenObjectChange = false
        var rowDeletes: [(IndexPath, ObjectIdentifier)] = [], rowInserts: [(IndexPath, ObjectIdentifier)] = []
        var sectionDeletes: [Int] = [], sectionInserts: [(Int, String)] = []
        var updates: [(IndexPath, IndexPath?, ObjectIdentifier)] = []
        for call in calls.dropFirst().dropLast() {
            switch call {
            case .willChange, .didChange: return .failure(ReplayError("nested will/didChange"))
            case let .section(name, index, type):
                if seenObjectChange { return .failure("section change after an object change") }
                switch type {
                case .insert: sectionInserts.append((index, name))
                case .delete: sectionDeletes.append(index)
                default: return .failure(ReplayError("section change of type \(type)"))
                }
            case let .object(object, type, indexPath, newIndexPath):
                seenObjectChange = true
                let id = ObjectIdentifier(object)
                switch type {
                case .insert:
                    guard indexPath == nil, let newIndexPath else { return .failure("insert with \(String(describing: indexPath)) → \(String(describing: newIndexPath))") }
                    rowInserts.append((newIndexPath, id))
                case .delete:
                    guard let indexPath, newIndexPath == nil else { return .failure("delete with \(String(describing: indexPath)) → \(String(describing: newIndexPath))") }
                    rowDeletes.append((indexPath, id))
                case .move:
                    guard let indexPath, let newIndexPath else { return .failure("move without both index paths") }
                    rowDeletes.append((indexPath, id))
                    rowInserts.append((newIndexPath, id))
                case .update:
                    guard let indexPath else { return .failure("update without index path") }
                    updates.append((indexPath, newIndexPath, id))
                }
            }
        }
        var model = sections
        for (path, id) in rowDeletes + updates.map({ ($0.0, $0.2) }) {
            guard model.indices.contains(path.section), model[path.section].objects.indices.contains(path.item),
                  model[path.section].objects[path.item] == id else { return .failure("old index path \(path) does not hold the object") }
        }
        for (path, _) in rowDeletes.sorted(by: { $0.0 > $1.0 }) { model[path.section].objects.remove(at: path.item) }
        for index in sectionDeletes.sorted(by: >) {
            guard model[index].objects.isEmpty else { return .failure("deleted section \(index) still has rows") }
            model.remove(at: index)
        }
        for (index, name) in sectionInserts.sorted(by: { $0.0 < $1.0 }) {
            guard index <= model.count else { return .failure("section insert at \(index) beyond \(model.count)") }
            model.insert((name, []), at: index)
        }
        for (path, id) in rowInserts.sorted(by: { $0.0 < $1.0 }) {
            guard model.indices.contains(path.section), path.item <= model[path.section].objects.count else {
                return .failure(ReplayError("insert at \(path) out of range"))
            }
            model[path.section].objects.insert(id, at: path.item)
        }
        for (old, new, id) in updates {
            let path = new ?? old
            guard model.indices.contains(path.section), model[path.section].objects.indices.contains(path.item),
                  model[path.section].objects[path.item] == id else { return .failure("updated object not at \(path) after the replay") }
        }
        var result = self
        result.sections = model
        return .success(result)
    }
}

struct ReplayError: Error, ExpressibleByStringInterpolation, CustomStringConvertible {
    let description: String
    init(stringLiteral value: String) { description = value }
    init(_ value: String) { description = value }
}
