import Testing
import GRDB
@testable import OpenCoreDataCore

/// Issue 19: every corpus store, damaged in a fixed set of ways (a fixed
/// seed per store), then opened without a model as an unknown store is (the
/// model rebuilt from its tables), every entity fetched and every property of
/// every object read. Each case must end in a thrown NSError of Cocoa's
/// domain or in a full read, never a trap or a hang, within a time limit.
///
/// The damage: byte flips anywhere and in the schema page, truncation (of
/// the file and of its WAL), a damaged Z_METADATA plist, dropped bookkeeping
/// tables and rows, Z_PRIMARYKEY rows with NULL, self-referencing, cyclic or
/// dangling Z_SUPER, NULL or foreign Z_NAME, text Z_MAX, rows with NULL or
/// foreign Z_ENT, and columns holding values of the wrong kind. Copies only,
/// in a temporary folder.
@Suite(.enabled(if: Corpus.stores != nil, "shared/corpus/stores is absent"))
struct MutatedStoreTests {
    /// Mutations per store: each kind once, then a second, differently aimed
    /// round of as many kinds as the time allows (the whole test stays well
    /// under 30 s on two shared cores).
    static let mutationsPerStore = 20
    /// The longest one damaged store may take to open and read.
    static let timeLimit: TimeInterval = 10

    enum Mutation: CustomStringConvertible {
        /// Bytes XORed with a mask at offsets of the main file.
        case flip([(offset: Int, mask: UInt8)])
        /// The file (or its WAL, when `wal`) cut to `length` bytes.
        case truncate(length: Int, wal: Bool)
        /// Statements run on the store.
        case sql(String)
        /// The Z_METADATA plist with bytes flipped or cut.
        case plist(flips: [(offset: Int, mask: UInt8)], length: Int?)

        var description: String {
            switch self {
            case .flip(let flips): "flip \(flips.map { "\($0.offset)^\($0.mask)" }.joined(separator: ","))"
            case .truncate(let length, let wal): "truncate \(wal ? "WAL" : "file") to \(length)"
            case .sql(let sql): "sql \(sql)"
            case .plist(let flips, let length): "plist flips \(flips.map(\.offset)) length \(length.map(String.init) ?? "kept")"
            }
        }
    }

    /// What the pristine store holds, to aim the mutations.
    struct Layout {
        var size = 0, walSize = 0, plistSize = 0
        var entities: [(number: Int, name: String)] = []
        /// Tables with their columns and row counts (join tables included).
        var tables: [(name: String, columns: [String], rows: Int)] = []
    }

    static func layout(of url: URL) throws -> Layout {
        var layout = Layout()
        layout.size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        layout.walSize = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
        try DatabaseQueue(path: url.path).read { db in
            layout.plistSize = try Int.fetchOne(db, sql: "SELECT length(Z_PLIST) FROM Z_METADATA") ?? 0
            layout.entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { ($0[0] as Int, $0[1] as String) }
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z*' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE') ORDER BY name")
            layout.tables = try names.map { name in
                (name, try db.columns(in: name).map(\.name), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0)
            }
        }
        return layout
    }

    /// The mutations of one store: every kind aimed by `random`, then kinds
    /// picked at random aimed anew, `mutationsPerStore` in all.
    static func mutations(_ layout: Layout, _ random: inout SeededGenerator) -> [Mutation] {
        let first = round(layout, &random)
        let second = round(layout, &random).shuffled(using: &random)
        return Array((first + second).prefix(mutationsPerStore))
    }

    /// One mutation of each kind, aimed by `random`.
    static func round(_ layout: Layout, _ random: inout SeededGenerator) -> [Mutation] {
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
        func flips(_ count: ClosedRange<Int>, below limit: Int) -> [(offset: Int, mask: UInt8)] {
            (0..<Int.random(in: count, using: &random)).map { _ in
                (Int.random(in: 0..<max(limit, 1), using: &random), UInt8.random(in: 1...255, using: &random))
            }
        }
        let entity = layout.entities.isEmpty ? (number: 1, name: "X") : pick(layout.entities)
        let other = layout.entities.isEmpty ? entity : pick(layout.entities)
        let table = layout.tables.isEmpty ? (name: "Z_PRIMARYKEY", columns: ["Z_ENT"], rows: 1) : pick(layout.tables)
        let column = pick(table.columns)
        let wrongValue = pick(["'text'", "x'00ff10'", "1.5", "-1", "9223372036854775807", "NULL", "''"])
        // A few rows from a seeded position (the rowid order is the file's, so the same each run).
        let rows = "rowid IN (SELECT rowid FROM \(table.name.quotedDatabaseIdentifier) ORDER BY rowid LIMIT \(Int.random(in: 1...5, using: &random)) "
            + "OFFSET \(Int.random(in: 0..<max(table.rows, 1), using: &random)))"
        let all: [Mutation] = [
            .flip(flips(1...24, below: layout.size)),
            .flip(flips(1...6, below: min(layout.size, 4096))),
            .truncate(length: Int.random(in: 0..<max(layout.size, 1), using: &random), wal: false),
            .plist(flips: flips(1...8, below: layout.plistSize), length: Bool.random(using: &random) ? Int.random(in: 0..<max(layout.plistSize, 1), using: &random) : nil),
            .sql("UPDATE Z_PRIMARYKEY SET Z_SUPER = Z_ENT WHERE Z_ENT = \(entity.number)"),
            .sql("UPDATE Z_PRIMARYKEY SET Z_SUPER = \(other.number) WHERE Z_ENT = \(entity.number); UPDATE Z_PRIMARYKEY SET Z_SUPER = \(entity.number) WHERE Z_ENT = \(other.number)"),
            .sql("UPDATE Z_PRIMARYKEY SET Z_SUPER = \(pick(["NULL", "0", "4242", "'x'"])) WHERE Z_ENT = \(entity.number)"),
            .sql("UPDATE Z_PRIMARYKEY SET Z_NAME = \(pick(["NULL", "42", "'Missing'", "''", "'a b'"])) WHERE Z_ENT = \(entity.number)"),
            .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = \(pick(["'text'", "1.5", "x'01'", "NULL"])) WHERE Z_ENT = \(entity.number)"),
            .sql(pick(["DROP TABLE Z_PRIMARYKEY", "DROP TABLE Z_METADATA", "DELETE FROM Z_METADATA", "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT = \(entity.number)",
                       "UPDATE Z_METADATA SET Z_UUID = x'00'", "UPDATE Z_METADATA SET Z_PLIST = 7"])),
            .sql("UPDATE \(table.name.quotedDatabaseIdentifier) SET Z_ENT = \(pick(["NULL", "'x'", "99999", "-1", "\(other.number)"])) WHERE \(rows)"),
            .sql("UPDATE \(table.name.quotedDatabaseIdentifier) SET \(column.quotedDatabaseIdentifier) = \(wrongValue) WHERE \(rows)"),
            .sql(pick(["DROP TABLE \(table.name.quotedDatabaseIdentifier)", "ALTER TABLE \(table.name.quotedDatabaseIdentifier) DROP COLUMN \(column.quotedDatabaseIdentifier)",
                       "ALTER TABLE \(table.name.quotedDatabaseIdentifier) RENAME COLUMN \(column.quotedDatabaseIdentifier) TO Z9\(column.uppercased())"])),
            layout.walSize > 0 ? .truncate(length: Int.random(in: 0..<layout.walSize, using: &random), wal: true)
                : .sql("UPDATE \(table.name.quotedDatabaseIdentifier) SET Z_OPT = 'x' WHERE \(rows)"),
        ]
        return all
    }

    /// A copy of `pristine` (a copy already) with `mutation` applied; nil when
    /// the mutation does not apply (SQLite refused the statement).
    static func apply(_ mutation: Mutation, to pristine: URL) throws -> URL? {
        let url = try SQLiteMetadataTests.copy(pristine)
        switch mutation {
        case .flip(let flips):
            var bytes = try Data(contentsOf: url)
            guard !bytes.isEmpty else { return nil }
            for (offset, mask) in flips { bytes[offset % bytes.count] ^= mask }
            try bytes.write(to: url)
        case .truncate(let length, let wal):
            let target = wal ? url.path + "-wal" : url.path
            guard truncate(target, off_t(length)) == 0 else { return nil }
        case .sql(let sql):
            do {
                try DatabaseQueue(path: url.path).writeWithoutTransaction { try $0.execute(sql: sql) }
            } catch {
                return nil
            }
        case .plist(let flips, let length):
            try DatabaseQueue(path: url.path).write { db in
                guard var plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"), !plist.isEmpty else { return }
                for (offset, mask) in flips { plist[offset % plist.count] ^= mask }
                if let length { plist = plist.prefix(length) }
                try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [plist])
            }
        }
        return url
    }

    /// Opens `url` with a model rebuilt from its tables and reads every
    /// property of every object; returns the number of objects read.
    static func readFully(_ url: URL) throws -> Int {
        let reconstruction = try SQLiteModelReconstruction(store: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: reconstruction.model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSIgnorePersistentStoreVersioningOption: true,
                                                                             NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var objects = 0
        for entity in coordinator.managedObjectModel.entities {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                objects += 1
                for (key, property) in entity.propertiesByName where !property.isTransient {
                    _ = SQLiteCorpusStoreTests.objects(object.value(forKey: key))
                }
            }
        }
        return objects
    }

    struct Tally {
        var stores = 0, mutations = 0, skipped = 0, reads = 0, objects = 0
        var codes: [Int: Int] = [:]
        var slowest: (seconds: TimeInterval, store: String) = (0, "")
    }

    @Test func everyCorpusStoreThrowsOrReadsWhateverTheDamage() throws {
        let started = Date()
        var tally = Tally(), failures: [String] = []
        for (index, store) in Corpus.files(in: Corpus.stores, suffix: ".sqlite").enumerated() {
            let name = store.lastPathComponent
            let pristine = try SQLiteMetadataTests.copy(store)
            defer { try? FileManager.default.removeItem(at: pristine.deletingLastPathComponent()) }
            var random = SeededGenerator(seed: 0x19_0000 + UInt64(index))
            let mutations = Self.mutations(try Self.layout(of: pristine), &random)
            tally.stores += 1
            let storeStarted = Date()
            for mutation in mutations {
                guard let url = try Self.apply(mutation, to: pristine) else { tally.skipped += 1; continue }
                defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
                tally.mutations += 1
                let caseStarted = Date()
                do {
                    tally.objects += try Self.readFully(url)
                    tally.reads += 1
                } catch {
                    let error = error as NSError
                    if error.domain == NSCocoaErrorDomain {
                        tally.codes[error.code, default: 0] += 1
                    } else {
                        failures.append("\(name), \(mutation): threw \(error.domain) \(error.code), not an NSCocoaErrorDomain error: \(error)")
                    }
                }
                let seconds = Date().timeIntervalSince(caseStarted)
                if seconds > Self.timeLimit { failures.append("\(name), \(mutation): took \(Int(seconds)) s") }
            }
            let seconds = Date().timeIntervalSince(storeStarted)
            if seconds > tally.slowest.seconds { tally.slowest = (seconds, name) }
        }
        let codes = tally.codes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ", ")
        print("""
            MutatedStoreTests: \(tally.stores) stores, \(tally.mutations) mutations applied (\(tally.skipped) not applicable): \
            \(tally.reads) read fully (\(tally.objects) objects), \(tally.mutations - tally.reads - failures.count) threw NSErrors (\(codes)); \
            \(String(format: "%.1f", Date().timeIntervalSince(started))) s, slowest store \(String(format: "%.1f", tally.slowest.seconds)) s (\(tally.slowest.store))
            """)
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(30).joined(separator: "\n"))")
        #expect(tally.stores >= 48 && tally.mutations >= tally.stores * 10)
        #expect(tally.reads > 0 && !tally.codes.isEmpty)
    }
}
