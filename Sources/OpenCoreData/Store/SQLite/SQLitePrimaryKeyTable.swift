import GRDB

/// One row of a store's `Z_PRIMARYKEY` table, checked: the entity's number
/// and name, its superentity's number (0 for a root) and the highest primary
/// key handed out for its hierarchy.
public struct SQLitePrimaryKeyRow: Sendable, Equatable {
    /// The entity's number (`Z_ENT`), unique in the store.
    public let number: Int
    /// The entity's name (`Z_NAME`).
    public let name: String
    /// The superentity's number (`Z_SUPER`), 0 for a root entity.
    public let superNumber: Int
    /// The highest primary key handed out so far (`Z_MAX`); the next insert of the hierarchy gets a
    /// higher one.
    public let maxPrimaryKey: Int64
}

/// Core Data's `Z_PRIMARYKEY` table read as untrusted input: a store file can
/// come from anywhere, so its rows are checked before any code walks the
/// entity hierarchy or builds SQL from the names.
///
/// Throws NSError 134080 (NSPersistentStoreOpenError) with the store's path
/// for a table that Core Data could not have written: a number or Z_MAX that
/// is not an integer, a name that is not an entity name (text of letters,
/// digits and underscores), a number or name used twice, a Z_SUPER naming an
/// entity the table does not hold, or a superentity chain that loops.
/// Throws 134000 (NSPersistentStoreInvalidTypeError) when there is no such
/// table: then the file is no Core Data store at all.
public enum SQLitePrimaryKeyTable {
    /// The rows of `Z_PRIMARYKEY`, in Z_ENT order, after the checks above.
    /// `file` only names the store in errors. One query, which names each
    /// column once (GRDB's authorizer costs ~12k instructions a column named);
    /// the rows are sorted here.
    public static func rows(_ db: Database, file: URL? = nil) throws -> [SQLitePrimaryKeyRow] {
        guard SQLiteFileSchema.hasTable("Z_PRIMARYKEY", in: db) else {
            let where_ = file.map { " (\($0.lastPathComponent))" } ?? ""
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The store\(where_) has no Z_PRIMARYKEY table: it is not a Core Data store.",
                                   userInfo: userInfo(file))
        }
        let missing = ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"].filter {
            SQLiteFileSchema.declaredColumn($0, of: "Z_PRIMARYKEY", in: db) == nil
        }
        guard missing.isEmpty else {
            throw damaged(file, "Z_PRIMARYKEY lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))")
        }
        var rows: [SQLitePrimaryKeyRow] = []
        var numbers: Set<Int> = [], names: Set<String> = []
        for values in try db.makeStatement(sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY").rowValues() {
            guard case .int64(let rawNumber) = values[0].storage, rawNumber > 0, rawNumber <= Int32.max else {
                throw damaged(file, "a Z_PRIMARYKEY row has Z_ENT \(values[0]), not a positive integer")
            }
            let number = Int(rawNumber)
            guard case .string(let name) = values[1].storage, isEntityName(name) else {
                throw damaged(file, "entity \(number) has Z_NAME \(describe(values[1])), not an entity name")
            }
            let superNumber: Int
            switch values[2].storage {
            case .null: superNumber = 0
            case .int64(let value) where value >= 0 && value <= Int32.max: superNumber = Int(value)
            default: throw damaged(file, "entity \(name) has Z_SUPER \(describe(values[2])), not an entity number")
            }
            let maxPrimaryKey: Int64
            switch values[3].storage {
            case .null: maxPrimaryKey = 0
            case .int64(let value): maxPrimaryKey = value // Core Data has written -1 (artsy ArtsyPartner 1.4)
            default: throw damaged(file, "entity \(name) has Z_MAX \(describe(values[3])), not a primary key")
            }
            guard numbers.insert(number).inserted else { throw damaged(file, "entity number \(number) is listed twice") }
            guard names.insert(name).inserted else { throw damaged(file, "entity \(name) is listed twice") }
            rows.append(SQLitePrimaryKeyRow(number: number, name: name, superNumber: superNumber, maxPrimaryKey: maxPrimaryKey))
        }
        rows.sort { $0.number < $1.number }
        // Every chain of superentities must end at a root (0) within as many
        // steps as there are entities; one that does not loops.
        let supers = Dictionary(rows.map { ($0.number, $0.superNumber) }, uniquingKeysWith: { a, _ in a })
        let byNumber = Dictionary(rows.map { ($0.number, $0.name) }, uniquingKeysWith: { a, _ in a })
        for row in rows {
            var current = row.superNumber, steps = 0
            while current != 0 {
                guard let next = supers[current] else {
                    throw damaged(file, "entity \(byNumber[row.number] ?? "") has Z_SUPER \(current), which is no entity of the store")
                }
                steps += 1
                guard current != row.number, steps <= rows.count else {
                    throw damaged(file, "the superentities of entity \(row.name) (Z_SUPER) form a cycle")
                }
                current = next
            }
        }
        return rows
    }

    /// Whether `name` can be an entity's name: letters, digits and underscores,
    /// not starting with a digit. Table names are made from it.
    static func isEntityName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
            || ($0.value > 0x7F && $0.properties.isAlphabetic) }
    }

    /// A store file Core Data could not have written: 134080 with the path.
    static func damaged(_ file: URL?, _ problem: String) -> NSError {
        let where_ = file.map { " \($0.lastPathComponent)" } ?? ""
        return NSError.coreData(NSPersistentStoreOpenError, "The store\(where_) is damaged: \(problem).", userInfo: userInfo(file))
    }

    private static func userInfo(_ file: URL?) -> [String: Any] {
        file.map { [NSFilePathErrorKey: $0.path] } ?? [:]
    }

    /// A column value for an error message, short.
    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let int): "\(int)"
        case .double(let double): "\(double)"
        case .string(let string): "'\(string.prefix(40))'"
        case .blob(let data): "a blob of \(data.count) bytes"
        }
    }
}
