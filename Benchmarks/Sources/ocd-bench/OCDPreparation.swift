import Foundation
import OpenCoreData

/// Untimed preparation of files OpenCoreData opens: the store checks version
/// hashes and entity numbers, so its bookkeeping tables come from a store it
/// created for the same model, with Z_MAX set to the rows present.
enum OCDPreparation {
    /// Adds the graph model's bookkeeping tables to a GraphData file.
    static func adoptGraph(_ url: URL) throws {
        let fresh = url.deletingLastPathComponent().appendingPathComponent("fresh-\(UUID().uuidString).sqlite")
        _ = try OCDModels.context(OCDModels.graph, fresh) // creates and closes a store with the model's metadata
        let db = try RawConnection(url)
        db.execute("ATTACH DATABASE '\(fresh.path)' AS fresh")
        var statements: [String] = []
        db.query("SELECT sql FROM fresh.sqlite_master WHERE name IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')") { s in
            statements.append(s.text(0))
        }
        statements.forEach(db.execute)
        db.execute("INSERT INTO Z_PRIMARYKEY SELECT * FROM fresh.Z_PRIMARYKEY")
        db.execute("INSERT INTO Z_METADATA SELECT * FROM fresh.Z_METADATA")
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT COUNT(*) FROM ZALBUM) WHERE Z_NAME = 'Album'")
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT COUNT(*) FROM ZPHOTO) WHERE Z_NAME = 'Photo'")
        db.execute("DETACH DATABASE fresh")
    }

    /// GRDB's ten-integer table `item`, plus the same rows in an OpenCoreData
    /// store's ZITEM: the file is created by OpenCoreData, then filled by SQL.
    static func items(rows: Int, at url: URL) throws {
        _ = try OCDModels.context(OCDModels.items, url)
        try GraphData.populateItems(rows: rows, at: url)
        let db = try RawConnection(url)
        db.execute("""
            INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZI0, ZI1, ZI2, ZI3, ZI4, ZI5, ZI6, ZI7, ZI8, ZI9)
            SELECT rowid, 1, 1, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM item
            """)
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT COUNT(*) FROM ZITEM) WHERE Z_NAME = 'Item'")
    }
}
