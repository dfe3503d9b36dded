import GRDB
import Foundation

/// The workloads written with GRDB records, as a GRDB user would.
enum GRDBWorkloads {
    struct Item: FetchableRecord, PersistableRecord {
        static let databaseTableName = "item"
        var values: [Int]
        init(_ i: Int) { values = Array(repeating: i, count: 10) }
        init(row: Row) throws { values = (0..<10).map { row[$0] } }
        func encode(to container: inout PersistenceContainer) throws {
            for (index, value) in values.enumerated() { container["i\(index)"] = value }
        }
    }

    struct Album: FetchableRecord, PersistableRecord {
        static let databaseTableName = "ZALBUM"
        var id: Int, name: String, created: Double
        init(row: Row) throws { id = row["Z_PK"]; name = row["ZNAME"]; created = row["ZCREATIONDATE"] }
        init(id: Int, name: String, created: Double) { self.id = id; self.name = name; self.created = created }
        func encode(to container: inout PersistenceContainer) throws {
            container["Z_PK"] = id; container["Z_ENT"] = 1; container["Z_OPT"] = 1
            container["ZNAME"] = name; container["ZCREATIONDATE"] = created
        }
    }

    struct Photo: FetchableRecord, PersistableRecord {
        static let databaseTableName = "ZPHOTO"
        var id: Int, name: String, rating: Int, fileSize: Int, created: Double, album: Int?
        init(row: Row) throws {
            id = row["Z_PK"]; name = row["ZNAME"]; rating = row["ZRATING"]; fileSize = row["ZFILESIZE"]
            created = row["ZCREATIONDATE"]; album = row["ZALBUM"]
        }
        init(_ p: GraphData.Photo) { id = p.id; name = p.name; rating = p.rating; fileSize = p.fileSize; created = p.created; album = p.album }
        func encode(to container: inout PersistenceContainer) throws {
            container["Z_PK"] = id; container["Z_ENT"] = 2; container["Z_OPT"] = 1; container["ZNAME"] = name
            container["ZRATING"] = rating; container["ZFILESIZE"] = fileSize; container["ZCREATIONDATE"] = created
            container["ZALBUM"] = album
        }
    }

    static func open(_ url: URL) throws -> DatabasePool { try DatabasePool(path: url.path) }

    static func insertItems(_ rows: Int, _ url: URL) throws {
        let db = try open(url)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)")
            for i in 0..<rows { try Item(i).insert(db) }
        }
    }

    static func insertGraph(_ photos: Int, _ url: URL) throws {
        let db = try open(url)
        try db.write { db in
            for statement in GraphData.schema { try db.execute(sql: statement) }
            for i in 0..<GraphData.albumCount(photos) { try Album(id: i + 1, name: GraphData.name(i), created: 700_000_000).insert(db) }
            for i in 0..<photos { try Photo(GraphData.photo(i, photos: photos)).insert(db) }
        }
    }

    static func fetchItems(_ rows: Int, _ url: URL) throws {
        let items = try open(url).read { try Item.fetchAll($0) }
        let sum = items.reduce(0) { $0 &+ $1.values.reduce(0, &+) }
        try check(sum == 10 * rows * (rows - 1) / 2, "fetchItems read wrong values")
    }

    static func fetchGraph(_ photos: Int, _ url: URL) throws {
        let (rows, albums) = try open(url).read { db in
            (try Photo.fetchAll(db, sql: "SELECT * FROM ZPHOTO ORDER BY ZNAME"),
             Dictionary(uniqueKeysWithValues: try Album.fetchAll(db).map { ($0.id, $0) }))
        }
        var bytes = 0
        for photo in rows { bytes &+= photo.name.utf8.count &+ photo.rating &+ (photo.album.flatMap { albums[$0]?.name.utf8.count } ?? 0) }
        try check(rows.count == photos && bytes > 0, "fetchGraph read \(rows.count)")
    }

    static func predicateFetch(_ photos: Int, _ url: URL) throws {
        let rows = try open(url).read { db in
            try Photo.fetchAll(db, sql: """
                SELECT p.* FROM ZPHOTO p JOIN ZALBUM a ON a.Z_PK = p.ZALBUM
                WHERE a.ZNAME LIKE 'a%' AND p.ZRATING > 3 ORDER BY a.ZNAME, p.ZNAME
                """)
        }
        try check(rows.count == Expected.predicateMatches(photos), "predicateFetch found \(rows.count)")
    }

    static func cascadeDelete(_ photos: Int, _ url: URL) throws {
        let albums = max(1, GraphData.albumCount(photos) / 10)
        try open(url).write { db in
            for album in 1...albums {
                try db.execute(sql: "DELETE FROM ZPHOTO WHERE ZALBUM = ?", arguments: [album])
                _ = try Album.deleteOne(db, key: ["Z_PK": album])
            }
        }
    }

    static func updateAll(_ photos: Int, _ url: URL) throws {
        try open(url).write { db in
            for var photo in try Photo.fetchAll(db) {
                photo.rating = photo.id % 5
                try photo.update(db, columns: ["ZRATING"])
            }
        }
    }

    /// GRDB's own batch update: `updateAll` with a column assignment.
    static func batchUpdate(_ photos: Int, _ url: URL) throws {
        let count = try open(url).write { db in
            try Photo.updateAll(db, Column("ZRATING").set(to: 3), Column("Z_OPT").set(to: Column("Z_OPT") + 1))
            return try Photo.filter(Column("ZRATING") == 3).fetchCount(db)
        }
        try check(count == photos, "batchUpdate set \(count)")
    }

    static func fetchFaults(_ photos: Int, _ url: URL) throws {
        let keys = try open(url).read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZPHOTO") }
        try check(keys.count == photos, "fetchFaults got \(keys.count)")
    }

    /// Every photo's record read by key, each in a read of its own.
    static func fireFaults(_ photos: Int, _ url: URL) throws {
        let pool = try open(url)
        let keys = try pool.read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZPHOTO") }
        var bytes = 0
        for key in keys {
            guard let photo = try pool.read({ db in try Photo.fetchOne(db, key: key) }) else { continue }
            bytes &+= photo.name.utf8.count &+ photo.rating
        }
        try check(keys.count == photos && bytes > 0, "fireFaults read \(keys.count)")
    }

    static func batchedWalk(_ photos: Int, _ url: URL) throws {
        var seen = 0
        try open(url).read { db in
            let cursor = try Photo.fetchCursor(db, sql: "SELECT * FROM ZPHOTO ORDER BY Z_PK")
            while let photo = try cursor.next() { seen += photo.name.isEmpty ? 0 : 1 }
        }
        try check(seen == photos, "batchedWalk saw \(seen)")
    }
}

