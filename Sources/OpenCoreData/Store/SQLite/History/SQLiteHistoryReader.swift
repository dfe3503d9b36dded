import GRDB

/// Reads and deletes an SQLite store's persistent history (``SQLiteHistoryTables``)
/// inside one read or write of the store: a transaction query joining the
/// interned strings, then one query for the changes of all those transactions.
struct SQLiteHistoryReader {
    let store: SQLiteStore
    let layouts: [Int: SQLiteHistoryLayout]
    let db: Database

    /// The number of the latest transaction ever recorded (deleted ones count).
    func currentNumber() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                           arguments: [SQLiteHistoryTables.transactionEntity]) ?? 0
    }

    func transactions(after bound: StoreHistoryBound, withChanges: Bool) throws -> [StoreHistoryTransaction] {
        let (condition, arguments) = try fetchCondition(bound)
        let names = ["ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS"]
        let joins = names.enumerated().map { index, column in
            "LEFT JOIN ATRANSACTIONSTRING s\(index) ON s\(index).Z_PK = t.\(column)"
        }.joined(separator: " ")
        let sql = "SELECT t.Z_PK, t.ZTIMESTAMP, s0.ZNAME, s1.ZNAME, s2.ZNAME, s3.ZNAME FROM ATRANSACTION t \(joins) "
            + "WHERE \(condition) ORDER BY t.Z_PK"
        var transactions = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            StoreHistoryTransaction(number: row[0], timestamp: Date(timeIntervalSinceReferenceDate: row[1] ?? 0),
                                    author: row[2], bundleID: row[3], contextName: row[4], processID: row[5])
        }
        guard withChanges, let first = transactions.first?.number, let last = transactions.last?.number else {
            return transactions
        }
        let byNumber = try changes(from: first, to: last)
        for index in transactions.indices { transactions[index].changes = byNumber[transactions[index].number] ?? [] }
        return transactions
    }

    /// Deletes the transactions before `bound` with their changes.
    func delete(before bound: StoreHistoryBound) throws -> Int {
        let condition: String, arguments: StatementArguments
        switch bound {
        case .all: (condition, arguments) = ("1", [])
        case .transaction(let number): (condition, arguments) = ("Z_PK < ?", [number])
        case .date(let date): (condition, arguments) = ("ZTIMESTAMP < ?", [date.timeIntervalSinceReferenceDate])
        }
        try db.execute(sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN "
                           + "(SELECT Z_PK FROM ATRANSACTION WHERE \(condition))", arguments: arguments)
        try db.execute(sql: "DELETE FROM ATRANSACTION WHERE \(condition)", arguments: arguments)
        return db.changesCount
    }

    /// The WHERE condition of the transactions after `bound`; throws 134301
    /// when some of them were deleted.
    private func fetchCondition(_ bound: StoreHistoryBound) throws -> (String, StatementArguments) {
        switch bound {
        case .all:
            return ("1", [])
        case .date(let date):
            return ("t.ZTIMESTAMP > ?", [date.timeIntervalSinceReferenceDate])
        case .transaction(let number):
            // Transaction numbers have no gaps (Z_MAX rolls back with a failed
            // transaction), so the oldest remaining one must follow `number`.
            let oldest = try Int64.fetchOne(db, sql: "SELECT min(Z_PK) FROM ATRANSACTION") ?? (try currentNumber() + 1)
            if number + 1 < oldest {
                throw NSError.coreData(NSPersistentHistoryTokenExpiredError,
                                       "The persistent history token has expired: transactions \(number + 1) to "
                                       + "\(oldest - 1) of store \(store.identifier ?? "") were deleted.",
                                       userInfo: store.url.map { [NSFilePathErrorKey: $0.path] } ?? [:])
            }
            return ("t.Z_PK > ?", [number])
        }
    }

    private func changes(from first: Int64, to last: Int64) throws -> [Int64: [StoreHistoryChange]] {
        let tombstones = try SQLiteHistoryTables.tombstoneColumns(db)
        let columns = (0..<tombstones).map { ", ZTOMBSTONE\($0)" }.joined()
        let rows = try Row.fetchCursor(db, sql: "SELECT ZTRANSACTIONID, Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS"
                                       + "\(columns) FROM ACHANGE WHERE ZTRANSACTIONID BETWEEN ? AND ? "
                                       + "ORDER BY ZTRANSACTIONID, Z_PK", arguments: [first, last])
        var found: [Int64: [StoreHistoryChange]] = [:]
        while let row = try rows.next() {
            // A change of an entity this model does not have cannot be named, nor one of a type Core
            // Data does not write (0 insert, 1 update, 2 delete): it is left out.
            guard let entity: Int = row[3], let pk: Int64 = row[4], let layout = layouts[entity],
                  let type: Int = row[2], (0...2).contains(type),
                  let id = store.objectID(entityNumber: entity, primaryKey: pk) else { continue }
            var change = StoreHistoryChange(id: row[1], type: type, objectID: id)
            if type == 1, let bitmap: Data = row[5] { change.updatedProperties = layout.properties(in: Array(bitmap)) }
            if type == 2 {
                var tombstone: [String: Any] = [:]
                for (index, (attribute, _)) in layout.tombstones.enumerated() where index < tombstones {
                    if let value = SQLiteValueCoding.value(row[6 + index], for: attribute) {
                        tombstone[attribute.name] = value
                    }
                }
                change.tombstone = tombstone
            }
            found[row[0], default: []].append(change)
        }
        return found
    }
}
