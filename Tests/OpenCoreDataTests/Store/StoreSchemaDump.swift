import Foundation

/// A Core Data store as dumped in the corpus: `sqlite3 FILE .schema`
/// (`<store>.schema.txt`) and the Z_PRIMARYKEY rows, parsed enough to compare
/// with a generated ``SQLiteSchema``.
struct StoreSchemaDump {
    struct Table: Equatable {
        var name: String
        var columns: [(name: String, type: String)]
        var primaryKey: String?
        var constraints: [String]
        static func == (a: Table, b: Table) -> Bool {
            a.name == b.name && a.columns.elementsEqual(b.columns, by: ==) && a.primaryKey == b.primaryKey
                && a.constraints == b.constraints
        }
    }

    /// Every statement, with the trailing semicolon removed.
    var statements: [String] = []
    var tables: [String: Table] = [:]
    /// Index statements normalized to `CREATE [UNIQUE] INDEX name ON table (terms)`.
    var indexes: Set<String> = []
    var triggerCount = 0
    /// Z_PRIMARYKEY rows: entity name → (Z_ENT, Z_SUPER).
    var entities: [String: (number: Int, superNumber: Int)] = [:]
    /// `NSPersistenceFrameworkVersion` of the store's metadata.
    var frameworkVersion = 0

    init(store: URL) throws {
        let text = try String(contentsOf: URL(fileURLWithPath: store.path + ".schema.txt"), encoding: .utf8)
        for raw in text.components(separatedBy: ";\n") {
            let statement = raw.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: [";"])
            guard !statement.isEmpty else { continue }
            statements.append(statement)
            if statement.hasPrefix("CREATE TABLE") {
                let table = Self.parseTable(statement)
                tables[table.name] = table
            } else if statement.hasPrefix("CREATE INDEX") || statement.hasPrefix("CREATE UNIQUE INDEX") {
                indexes.insert(Self.unquote(statement))
            } else if statement.hasPrefix("CREATE TRIGGER") {
                triggerCount += 1
            }
        }
        let keys = try String(contentsOf: URL(fileURLWithPath: store.path + ".Z_PRIMARYKEY.txt"), encoding: .utf8)
        for line in keys.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if fields.count >= 3, let number = Int(fields[0]), let superNumber = Int(fields[2]) {
                entities[fields[1]] = (number, superNumber)
            }
        }
        let metadata = try Data(contentsOf: URL(fileURLWithPath: store.path + ".Z_METADATA.json"))
        if let rows = try JSONSerialization.jsonObject(with: metadata) as? [[String: Any]],
           let plist = rows.first?["Z_PLIST"] as? [String: Any] {
            frameworkVersion = (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue ?? 0
        }
    }

    private static func unquote(_ s: String) -> String {
        s.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "`", with: "")
    }

    /// Parses `CREATE TABLE [IF NOT EXISTS] name ( col TYPE, …, PRIMARY KEY (…), CONSTRAINT … )`.
    static func parseTable(_ statement: String) -> Table {
        var head = statement.dropFirst("CREATE TABLE ".count)
        if head.hasPrefix("IF NOT EXISTS ") { head = head.dropFirst("IF NOT EXISTS ".count) }
        let open = head.firstIndex(of: "(")!, close = head.lastIndex(of: ")")!
        let name = unquote(head[..<open].trimmingCharacters(in: .whitespaces))
        var parts: [String] = [], current = "", depth = 0
        for character in head[head.index(after: open)..<close] {
            switch character {
            case "(": depth += 1; current.append(character)
            case ")": depth -= 1; current.append(character)
            case "," where depth == 0: parts.append(current); current = ""
            default: current.append(character)
            }
        }
        parts.append(current)
        var table = Table(name: name, columns: [], primaryKey: nil, constraints: [])
        for part in parts.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !part.isEmpty {
            if part.hasPrefix("PRIMARY KEY") { table.primaryKey = part; continue }
            if part.hasPrefix("CONSTRAINT") { table.constraints.append(part); continue }
            let tokens = part.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            let type = tokens.count > 1 ? tokens[1] : ""
            table.columns.append((unquote(tokens[0]), type))
        }
        return table
    }
}
