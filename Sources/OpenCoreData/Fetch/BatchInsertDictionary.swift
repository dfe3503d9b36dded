/// The dictionary a batch insert hands its `dictionaryHandler`: an
/// NSMutableDictionary that keeps what the handler sets as an array of
/// string keys and values, so the store reads a record without
/// Foundation's dictionary machinery (its key hashing and value boxing cost
/// about ten times the SQLite insert of the record on Linux). Keys must be
/// strings, as the attribute names they are; others are kept apart and
/// reported by the request.
final class BatchInsertDictionary: NSMutableDictionary {
    /// The keys and values set for the current record, in the order first
    /// set: the first `used` entries; later ones are storage kept for the
    /// next record.
    /// Unchecked exclusivity: the handler runs on one queue, and the runtime
    /// checks cost a sixth of a record's insert.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var values: [Any] = []
    @exclusivity(unchecked) private var used = 0
    /// A key set that is no string, for the error the request throws.
    private(set) var foreignKey: AnyHashable?

    required init() {
        super.init(objects: nil, forKeys: nil, count: 0)
    }

    required init(objects: UnsafePointer<AnyObject>!, forKeys keys: UnsafePointer<NSObject>!, count cnt: Int) {
        super.init(objects: objects, forKeys: keys, count: cnt)
    }

    required init?(coder: NSCoder) { nil }

    required convenience init(dictionaryLiteral elements: (Any, Any)...) {
        self.init()
        for (key, value) in elements { if let key = key as? AnyHashable { setObject(value, forKey: key) } }
    }

    /// Empties the dictionary for the next record, keeping its storage.
    func clear() {
        used = 0
        foreignKey = nil
    }

    /// Calls `field` with each key and value set, in the order first set.
    func forEachField(_ field: (String, Any) throws -> Void) rethrows {
        for index in 0..<used { try field(keys[index], values[index]) }
    }

    override var count: Int { used }

    override func object(forKey aKey: Any) -> Any? {
        guard let key = Self.string(aKey), let index = self.index(of: key) else { return nil }
        return values[index]
    }

    override func keyEnumerator() -> NSEnumerator {
        NSArray(array: keys[0..<used].map { NSString(string: $0) }).objectEnumerator()
    }

    override func setObject(_ anObject: Any, forKey aKey: AnyHashable) {
        guard let key = Self.string(aKey.base) else {
            foreignKey = aKey
            return
        }
        if let index = index(of: key) {
            values[index] = anObject
        } else if used < keys.count {
            keys[used] = key
            values[used] = anObject
            used += 1
        } else {
            keys.append(key)
            values.append(anObject)
            used += 1
        }
    }

    override func removeObject(forKey aKey: Any) {
        guard let key = Self.string(aKey), let index = index(of: key) else { return }
        keys.remove(at: index)
        values.remove(at: index)
        used -= 1
    }

    private func index(of key: String) -> Int? {
        (0..<used).first { keys[$0] == key }
    }

    /// `key` as a String: by opening the existential, a third of a cast's cost.
    private static func string(_ key: Any) -> String? {
        func open<T>(_ value: T) -> String? { T.self == String.self ? unsafeBitCast(value, to: String.self) : nil }
        if let string = _openExistential(key, do: open) { return string }
        return (key as? NSString).map { String($0) }
    }
}
