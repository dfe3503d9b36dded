import Foundation

/// Values the layers above derive from a frozen model, made once per model
/// rather than at every use (the SQLite store's table mapping, which every
/// open of a store would otherwise build again). The model never reads them;
/// each is immutable once made, so two threads making one at once is harmless.
final class ModelDerivedValues: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Any] = [:]

    /// The value under `key`, made by `make` the first time it is asked for;
    /// a value `make` failed to make is not remembered.
    func value<T>(_ key: String, _ make: () throws -> T) rethrows -> T {
        if let value = lock.withLock({ values[key] }) as? T { return value }
        let made = try make()
        lock.withLock { values[key] = made }
        return made
    }
}

extension NSManagedObjectModel {
    /// The value derived under `key`, made by `make` once for a frozen model
    /// (then a dictionary read under a lock); an editable model may still
    /// change, so it is made afresh each time.
    func derived<T>(_ key: String, _ make: () throws -> T) rethrows -> T {
        guard !isEditable else { return try make() }
        return try derivedValues.value(key, make)
    }
}
