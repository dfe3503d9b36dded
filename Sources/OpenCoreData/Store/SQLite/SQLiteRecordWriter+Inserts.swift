import GRDB
import GRDBSQLite

// Inserting a save's new rows several to a statement: one execution of
// `INSERT … VALUES (…), (…), …` per `insertBatchRows` rows of an entity. A
// row inserted alone pays for starting the statement, opening and closing its
// table cursor (a b-tree descent to find its key's place), building its record
// in freshly allocated memory and resetting it: ~1,900 of the ~7,700
// instructions SQLite spends on a row of ten integers, nearly all of which a
// batch shares among its rows (its cursor stays where the last row went, so
// ascending keys need no descent). Measured with SQLite 3.40's C API, 10,000
// rows: 7.7k instructions a row alone, 5.9k in batches of 16, 5.8k of 32.
// The batch statement is prepared once per connection, at the first save
// that fills a batch: 1.45M instructions for 16 rows of 13 values, 1.85M for
// 32 (what batches save on ~750 and ~950 rows). 16 pays that back sooner; 32
// would save ~100 instructions more a row (insert-items, 10,000 rows).
// Which rows go first does not matter: Core Data's tables declare no foreign
// keys, and a unique index refuses a duplicate whatever the order.

extension SQLiteRecordWriter {
    /// The most rows one INSERT writes, fewer when an entity has so many
    /// columns that their parameters would pass SQLite's limit.
    static let insertBatchRows = 16

    /// Inserts the rows of `records`, each with its statement in `rows` (by
    /// position): a batch statement whenever `batchRows` records of one
    /// statement are waiting, the rest one by one at the end.
    func insert(_ records: UnsafeBufferPointer<StoreSnapshot>, with rows: [RowStatement]) throws {
        // Waiting records by statement, in a local list: kept on the statement (a class), each append cost an
        // exclusivity check. A save's inserts are of a few entities, mostly one after another.
        var queues: [InsertQueue] = [], current = -1
        // By index: an `enumerated()` sequence's type is made at run time on its first use, which looks up its
        // conformances (a scan of every conformance record loaded, ~170,000 instructions a process).
        for position in rows.indices {
            let row = rows[position]
            guard row.batchRows > 1 else {
                _ = try write(records.baseAddress! + position, with: row)
                continue
            }
            if current < 0 || queues[current].row !== row {
                current = queues.firstIndex { $0.row === row } ?? queues.count
                if current == queues.count { queues.append(InsertQueue(row: row)) }
            }
            queues[current].pending.append(position)
            guard queues[current].pending.count == row.batchRows else { continue }
            let batch = try row.batchStatement(in: db)
            var first: CInt = 0
            for pending in queues[current].pending {
                try bind(records.baseAddress! + pending, of: row, to: batch, after: first)
                first += row.parameterCount
            }
            try batch.runInTransaction()
            queues[current].pending.removeAll(keepingCapacity: true)
        }
        for queue in queues {
            for pending in queue.pending { _ = try write(records.baseAddress! + pending, with: queue.row) }
        }
    }

    /// The records waiting for a batch of `row`, as positions in the save's list of inserts.
    private struct InsertQueue {
        let row: RowStatement
        var pending: [Int] = []
    }
}
