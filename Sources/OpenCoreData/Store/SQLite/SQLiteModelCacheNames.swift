import GRDB

/// Property names as the model spells them, read from the store's
/// `Z_MODELCACHE`: Core Data keeps there the model the store was last saved
/// with, as a keyed archive compressed with raw DEFLATE. The tables keep
/// names only in capitals (`ZREMOTEID`), so a model rebuilt from them would
/// say `remoteid` where the app says `remoteID`.
///
/// Only the archive's strings are read, not its objects: a property name
/// starts with a lower-case letter, so each such string is the spelling of the
/// capitals that match it. A store without the table, or with a cache this
/// does not read, gives no names (and the rebuilt model keeps lower case).
struct SQLiteModelCacheNames {
    /// Lower-cased name → the model's spelling.
    private(set) var spellings: [String: String] = [:]

    var isEmpty: Bool { spellings.isEmpty }

    init(_ db: Database) {
        guard (try? db.tableExists("Z_MODELCACHE")) == true,
              let blob = try? Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") else {
            self.init(cache: Data())
            return
        }
        self.init(cache: blob)
    }

    init(cache blob: Data) {
        guard let archive = try? Data(Inflate.decompress(Array(blob), limit: 64 << 20)),
              let plist = try? UntrustedPropertyList.propertyList(from: archive) as? [String: Any],
              let objects = plist["$objects"] as? [Any] else { return }
        for case let text as String in objects {
            guard let first = text.unicodeScalars.first, first.properties.isLowercase,
                  text.count <= 256, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            // The first spelling wins: two names differing only in case would share one column anyway.
            if spellings[text.lowercased()] == nil { spellings[text.lowercased()] = text }
        }
    }

    /// The model's spelling of the property whose column name (without its Z) is `capitals`.
    func propertyName(_ capitals: String) -> String {
        let lower = capitals.lowercased()
        return spellings[lower] ?? lower
    }
}
