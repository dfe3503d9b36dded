import Foundation

/// The photo-album graph the graph workloads share: N photos, each in one of
/// N/100 albums, stored in Core Data's layout (ZALBUM, ZPHOTO) so that every
/// system reads and writes the same tables.
enum GraphData {
    static let schema = [
        "CREATE TABLE ZALBUM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATIONDATE TIMESTAMP, ZNAME VARCHAR)",
        "CREATE TABLE ZPHOTO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRATING INTEGER, ZFILESIZE INTEGER, ZALBUM INTEGER, ZCREATIONDATE TIMESTAMP, ZNAME VARCHAR)",
        "CREATE INDEX ZPHOTO_ZALBUM_INDEX ON ZPHOTO (ZALBUM)",
    ]

    static let syllables = ["ka", "lo", "mi", "su", "ra", "te", "no", "vi", "an", "el", "or", "ut", "be", "di", "go", "he"]

    /// A deterministic pronounceable name; about 1 in 8 starts with "a".
    static func name(_ seed: Int) -> String {
        var x = UInt64(truncatingIfNeeded: seed) &* 0x9E3779B97F4A7C15
        var parts: [String] = []
        for _ in 0..<3 {
            x ^= x >> 29; x &*= 0xBF58476D1CE4E5B9
            parts.append(syllables[Int(x % UInt64(syllables.count))])
        }
        return parts.joined() + "-\(seed)"
    }

    static func albumCount(_ photos: Int) -> Int { max(1, photos / 100) }

    struct Photo { var id: Int; var name: String; var rating: Int; var fileSize: Int; var created: Double; var album: Int }

    static func photo(_ i: Int, photos: Int) -> Photo {
        Photo(id: i + 1, name: name(i * 7 + 3), rating: i % 6, fileSize: 1000 + i, created: 700_000_000 + Double(i),
              album: i % albumCount(photos) + 1)
    }

    /// Fills `url` with the graph through raw SQL (untimed preparation).
    static func populate(photos: Int, at url: URL) throws {
        let db = try RawConnection(url)
        for statement in schema { db.execute(statement) }
        db.execute("BEGIN")
        db.run("INSERT INTO ZALBUM (Z_PK, Z_ENT, Z_OPT, ZCREATIONDATE, ZNAME) VALUES (?, 1, 1, ?, ?)", 0..<albumCount(photos)) { s, i in
            s.bind(1, i + 1); s.bind(2, 700_000_000.0); s.bind(3, name(i))
        }
        db.run("INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZRATING, ZFILESIZE, ZALBUM, ZCREATIONDATE, ZNAME) VALUES (?, 2, 1, ?, ?, ?, ?, ?)", 0..<photos) { s, i in
            let p = photo(i, photos: photos)
            s.bind(1, p.id); s.bind(2, p.rating); s.bind(3, p.fileSize); s.bind(4, p.album); s.bind(5, p.created); s.bind(6, p.name)
        }
        db.execute("COMMIT")
    }

    /// The ten-integer table of GRDB's own published benchmarks.
    static func populateItems(rows: Int, at url: URL) throws {
        let db = try RawConnection(url)
        db.execute("CREATE TABLE item (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)")
        db.execute("BEGIN")
        db.run("INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)", 0..<rows) { s, i in
            for column in Int32(1)...10 { s.bind(column, i) }
        }
        db.execute("COMMIT")
    }
}
