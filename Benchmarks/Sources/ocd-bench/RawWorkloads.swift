import GRDBSQLite
import Foundation

/// The workloads written against the SQLite C API.
enum RawWorkloads {
    static func insertItems(_ rows: Int, _ url: URL) throws {
        try GraphData.populateItems(rows: rows, at: url)
    }

    static func insertGraph(_ photos: Int, _ url: URL) throws {
        try GraphData.populate(photos: photos, at: url)
    }

    static func fetchItems(_ rows: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var sum = 0
        db.query("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM item") { s in
            for column in Int32(0)..<10 { sum &+= s.int(column) }
        }
        try check(sum == 10 * rows * (rows - 1) / 2, "fetchItems read wrong values")
    }

    static func fetchGraph(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var count = 0, bytes = 0
        db.query("""
            SELECT p.ZNAME, p.ZRATING, p.ZFILESIZE, p.ZCREATIONDATE, a.ZNAME FROM ZPHOTO p
            LEFT JOIN ZALBUM a ON a.Z_PK = p.ZALBUM ORDER BY p.ZNAME
            """) { s in
            bytes &+= s.text(0).utf8.count &+ s.int(1) &+ s.int(2) &+ Int(s.double(3)) &+ s.text(4).utf8.count
            count += 1
        }
        try check(count == photos && bytes > 0, "fetchGraph read \(count) photos")
    }

    static func predicateFetch(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var count = 0
        db.query("""
            SELECT p.ZNAME, p.ZRATING, a.ZNAME FROM ZPHOTO p JOIN ZALBUM a ON a.Z_PK = p.ZALBUM
            WHERE a.ZNAME LIKE 'a%' AND p.ZRATING > 3 ORDER BY a.ZNAME, p.ZNAME
            """) { s in
            count += s.text(0).isEmpty ? 0 : 1
        }
        try check(count == Expected.predicateMatches(photos), "predicateFetch found \(count)")
    }

    static func cascadeDelete(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        let albums = GraphData.albumCount(photos) / 10
        db.execute("BEGIN")
        db.run("DELETE FROM ZPHOTO WHERE ZALBUM = ?", 1...max(1, albums)) { s, album in s.bind(1, album) }
        db.run("DELETE FROM ZALBUM WHERE Z_PK = ?", 1...max(1, albums)) { s, album in s.bind(1, album) }
        db.execute("COMMIT")
    }

    /// Reads every photo with its columns, then updates each one's rating
    /// from what it read: an object layer must read the rows it changes, so
    /// the raw side does too.
    static func updateAll(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var rows: [GraphData.Photo] = []
        db.execute("BEGIN")
        db.query("SELECT Z_PK, ZNAME, ZRATING, ZFILESIZE, ZCREATIONDATE, ZALBUM FROM ZPHOTO") { s in
            rows.append(GraphData.Photo(id: s.int(0), name: s.text(1), rating: s.int(2), fileSize: s.int(3),
                                        created: s.double(4), album: s.int(5)))
        }
        // fileSize - 999 is the photo's Z_PK: the same values the OpenCoreData and GRDB sides write.
        db.run("UPDATE ZPHOTO SET ZRATING = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", rows) { s, photo in
            s.bind(1, (photo.fileSize - 999) % 5); s.bind(2, photo.id)
        }
        db.execute("COMMIT")
        try check(rows.count == photos, "updateAll read \(rows.count) photos")
    }

    /// Photos without albums inserted into empty tables with one prepared
    /// statement in one transaction: what NSBatchInsertRequest does.
    static func batchInsert(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        for statement in GraphData.schema { db.execute(statement) }
        db.execute("BEGIN")
        db.run("INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZRATING, ZFILESIZE, ZCREATIONDATE, ZNAME) "
               + "VALUES (?, 2, 1, ?, ?, ?, ?)", 0..<photos) { s, i in
            let p = GraphData.photo(i, photos: photos)
            s.bind(1, p.id); s.bind(2, p.rating); s.bind(3, p.fileSize); s.bind(4, p.created); s.bind(5, p.name)
        }
        db.execute("COMMIT")
    }

    /// Every photo whose file size is at least 1000 (all of them) deleted by one statement.
    static func batchDelete(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        db.execute("DELETE FROM ZPHOTO WHERE ZFILESIZE >= 1000")
        var count = -1
        db.query("SELECT COUNT(*) FROM ZPHOTO") { s in count = s.int(0) }
        try check(count == 0, "batchDelete left \(count)")
    }

    /// One attribute of every photo set to a constant: one statement.
    static func batchUpdate(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        db.execute("UPDATE ZPHOTO SET ZRATING = 3, Z_OPT = Z_OPT + 1")
        var count = 0
        db.query("SELECT COUNT(*) FROM ZPHOTO WHERE ZRATING = 3") { s in count = s.int(0) }
        try check(count == photos, "batchUpdate set \(count)")
    }

    /// The keys a fault stands for, held until counted.
    static func fetchFaults(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var keys: [Int] = []
        db.query("SELECT Z_PK FROM ZPHOTO") { s in keys.append(s.int(0)) }
        try check(keys.count == photos, "fetchFaults got \(keys.count)")
    }

    /// Every photo's record read alone, by key, with one prepared statement.
    static func fireFaults(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var keys: [Int] = []
        db.query("SELECT Z_PK FROM ZPHOTO") { s in keys.append(s.int(0)) }
        let record = db.prepare("SELECT Z_ENT, Z_PK, Z_OPT, ZNAME, ZRATING, ZFILESIZE, ZCREATIONDATE, ZALBUM "
                                + "FROM ZPHOTO WHERE Z_PK = ?")
        var bytes = 0
        for key in keys {
            sqlite3_reset(record)
            record.bind(1, key)
            guard sqlite3_step(record) == SQLITE_ROW else { continue }
            bytes &+= record.text(3).utf8.count &+ record.int(4) &+ record.int(5) &+ Int(record.double(6))
            bytes &+= record.int(7) &+ record.int(0) &+ record.int(2)
        }
        sqlite3_finalize(record)
        try check(keys.count == photos && bytes > 0, "fireFaults read \(keys.count)")
    }

    /// Walks every photo in pages of 100 rows, the way a batched fetch does.
    static func batchedWalk(_ photos: Int, _ url: URL) throws {
        let db = try RawConnection(url)
        var seen = 0
        var ids: [Int] = []
        db.query("SELECT Z_PK FROM ZPHOTO ORDER BY Z_PK") { s in ids.append(s.int(0)) }
        let page = db.prepare("SELECT ZNAME, ZRATING FROM ZPHOTO WHERE Z_PK BETWEEN ? AND ?")
        for start in stride(from: 0, to: ids.count, by: 100) {
            sqlite3_reset(page)
            page.bind(1, ids[start]); page.bind(2, ids[min(start + 99, ids.count - 1)])
            while sqlite3_step(page) == SQLITE_ROW { seen += page.text(0).isEmpty ? 0 : 1 }
        }
        sqlite3_finalize(page)
        try check(seen == photos, "batchedWalk saw \(seen)")
    }
}

/// What each workload must find, computed from the generated data, so that no
/// system can be fast by being wrong.
enum Expected {
    static func predicateMatches(_ photos: Int) -> Int {
        (0..<photos).filter { i in
            let p = GraphData.photo(i, photos: photos)
            return p.rating > 3 && GraphData.name(p.album - 1).lowercased().hasPrefix("a")
        }.count
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw BenchmarkError(message()) }
}
