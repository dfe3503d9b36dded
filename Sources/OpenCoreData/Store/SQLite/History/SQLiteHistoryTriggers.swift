import GRDB

/// The temporary triggers that record persistent history on a store's
/// writing connection (mjtsai.com/blog/?p=26353: Core Data maintains the
/// history with SQLite triggers, so batch requests are recorded too; its
/// triggers are not in the file, so these are `TEMP` ones, living as long as
/// the connection).
///
/// Per entity table, one trigger each after INSERT, UPDATE and DELETE adds an
/// `ACHANGE` row, its key and transaction counted by ``SQLiteHistoryRecorder``.
/// The first change of a transaction opens its `ATRANSACTION` row: it takes
/// the transaction's number from `Z_PRIMARYKEY`, and a trigger on that update
/// interns the strings, inserts the row and reports it. Each later change
/// costs one INSERT on top of the write itself, and an UPDATE that changes
/// nothing. (A temporary table written per change cost a page set up per
/// change: SQLite begins the empty temporary database anew for each statement.)
enum SQLiteHistoryTriggers {
    static func statements(mapping: SQLiteMapping, layouts: [Int: SQLiteHistoryLayout]) -> [String] {
        var statements = [beginTrigger]
        let byTable = Dictionary(grouping: mapping.schema.entities, by: \.table)
        for (table, entities) in byTable.sorted(by: { $0.key < $1.key }) {
            let tableLayouts = entities.compactMap { layouts[$0.number] }
            guard !tableLayouts.isEmpty else { continue }
            statements += triggers(table: table, layouts: tableLayouts)
        }
        return statements
    }

    /// Opens the transaction's row once its number was taken from
    /// `Z_PRIMARYKEY`: interns author, bundle ID, context name and process
    /// name in `ATRANSACTIONSTRING`, inserts the `ATRANSACTION` row, brings the
    /// change keys' `Z_MAX` up to the largest key in use (a batch request of the
    /// previous transaction did not), and reports both to the recorder.
    private static var beginTrigger: String {
        let (string, transaction) = (SQLiteHistoryTables.stringEntity, SQLiteHistoryTables.transactionEntity)
        let change = SQLiteHistoryTables.changeEntity
        let interned = (0..<4).map { kind in
            """
            INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) \
            SELECT (SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_ENT = \(string)), \(string), NSHISTORYINFO(\(kind)) \
            WHERE NSHISTORYINFO(\(kind)) IS NOT NULL \
            AND NOT EXISTS (SELECT 1 FROM ATRANSACTIONSTRING WHERE ZNAME = NSHISTORYINFO(\(kind))); \
            UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ifnull((SELECT max(Z_PK) FROM ATRANSACTIONSTRING), 0)) \
            WHERE Z_ENT = \(string);
            """
        }.joined(separator: " ")
        let stringKey = { (kind: Int) in "(SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = NSHISTORYINFO(\(kind)))" }
        return """
            CREATE TEMP TRIGGER IF NOT EXISTS Z_HISTORYBEGIN AFTER UPDATE OF Z_MAX ON main.Z_PRIMARYKEY \
            FOR EACH ROW WHEN NEW.Z_ENT = \(transaction) AND NSHISTORYTRANSACTION() IS NULL BEGIN \(interned) \
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS) \
            VALUES (NEW.Z_MAX, \(transaction), NSHISTORYNOW(), \(stringKey(0)), \(stringKey(1)), \(stringKey(2)), \
            \(stringKey(3))); \
            UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ifnull((SELECT max(Z_PK) FROM ACHANGE), 0)) \
            WHERE Z_ENT = \(change); \
            SELECT NSHISTORYOPENED(NEW.Z_MAX, (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(change))); END
            """
    }

    private static func triggers(table: String, layouts: [SQLiteHistoryLayout]) -> [String] {
        let tombstones = layouts.map(\.tombstones.count).max() ?? 0
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0)" }.joined()
        let tombstoneValues = (0..<tombstones).map { index in
            ", " + byEntity(layouts, row: "OLD") { layout in
                layout.tombstones.count > index ? "OLD.\(layout.tombstones[index].column)" : nil
            }
        }.joined()
        let columns = byEntity(layouts, row: "NEW") { columnsExpression($0) }
        return [
            trigger(table, "INSERT", type: 0, row: "NEW", columns: "", values: ""),
            trigger(table, "UPDATE", type: 1, row: "NEW", columns: ", ZCOLUMNS", values: ", " + columns),
            trigger(table, "DELETE", type: 2, row: "OLD", columns: tombstoneColumns, values: tombstoneValues),
        ]
    }

    private static func trigger(_ table: String, _ event: String, type: Int, row: String,
                                columns: String, values: String) -> String {
        """
        CREATE TEMP TRIGGER IF NOT EXISTS Z_HISTORY_\(table)_\(event) AFTER \(event) ON main.\(table) \
        FOR EACH ROW BEGIN \
        UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 \
        WHERE Z_ENT = \(SQLiteHistoryTables.transactionEntity) AND NSHISTORYTRANSACTION() IS NULL; \
        INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID\(columns)) \
        VALUES (NSHISTORYNEXTCHANGE(), \(SQLiteHistoryTables.changeEntity), \(type), \(row).Z_ENT, \(row).Z_PK, \
        NSHISTORYTRANSACTION()\(values)); END
        """
    }

    /// `CASE row.Z_ENT WHEN n THEN … END` over the entities sharing the table;
    /// NULL for an entity `value` gives nothing for.
    private static func byEntity(_ layouts: [SQLiteHistoryLayout], row: String,
                                 _ value: (SQLiteHistoryLayout) -> String?) -> String {
        let cases = layouts.compactMap { layout in value(layout).map { "WHEN \(layout.number) THEN \($0)" } }
        return cases.isEmpty ? "NULL" : "CASE \(row).Z_ENT \(cases.joined(separator: " ")) END"
    }

    /// `NSHISTORYCOLUMNS(Z_ENT, Z_PK, byte…)`: each byte sums the bits of the
    /// properties whose columns an update changed (`OLD.c IS NOT NEW.c`).
    private static func columnsExpression(_ layout: SQLiteHistoryLayout) -> String {
        var bytes: [String] = []
        for start in stride(from: 0, to: layout.properties.count, by: 8) {
            let bits = layout.properties[start..<min(start + 8, layout.properties.count)].enumerated()
                .compactMap { offset, property -> String? in
                    guard !property.columns.isEmpty else { return nil }
                    let changed = property.columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
                    return "((\(changed)) << \(7 - offset))"
                }
            bytes.append(bits.isEmpty ? "0" : bits.joined(separator: " | "))
        }
        return "NSHISTORYCOLUMNS(\(layout.number), NEW.Z_PK\(bytes.map { ", " + $0 }.joined()))"
    }
}
