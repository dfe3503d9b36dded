/// What happened to an object or a section, with Apple's raw values
/// (NSFetchedResultsController.h; reference §6.2).
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// It appeared: created, or it started matching the predicate.
    case insert = 1
    /// It disappeared: destroyed, invalidated, or it stopped matching.
    case delete = 2
    /// Its position changed (its values changed too; no separate update is sent).
    case move = 3
    /// Its values changed without moving it.
    case update = 4
}
