import GRDB

/// Runs a fetch as one SELECT of `Z_PK, Z_ENT`: the entity's rows (a `Z_ENT`
/// range with sub-entities), the predicate as a WHERE condition, the sort
/// descriptors as ORDER BY (to-one key paths as LEFT JOINs), and the window
/// as LIMIT/OFFSET — all with bound parameters.
///
/// The parts SQL cannot express with in-memory meaning (a conjunct of the
/// predicate, or the sort) are applied by ``FetchEvaluation`` to the rows
/// the SQL selected; then the window is applied in memory too, and the cost
/// is one snapshot load per candidate row.
///
/// A fetch of managed objects with property values (and no batch size) also
/// reads the selected rows' records in the same SELECT (plus one query per 512
/// rows and per to-many relationship), instead of one read per fault fired
/// afterwards.
struct SQLiteFetchExecution {
    let store: SQLiteStore
    let fetch: StoreFetch

    /// The SELECT of a fetch, and what is left for memory.
    private struct Plan {
        var sql: String
        var arguments: [DatabaseValue]
        /// Conjuncts of the predicate SQL cannot express.
        var residual: [NSPredicate]
        /// Whether the sort is left to memory.
        var sortsInMemory: Bool
        /// The WHERE conditions, and whether the selection needs joins (to-one key paths).
        var conditions: [String] = []
        var hasJoins = false
        /// `FROM <table> t0 <joins> WHERE <conditions>`: what the SELECT reads, without order or window.
        var selection = ""
        /// Whether LIMIT/OFFSET apply.
        var windowed = false
        /// The sort terms a sort of `compare:` strings left to SQLite's
        /// BINARY collation checks (``SQLiteBytewiseOrderCheck``), which the
        /// SELECT reads besides its other columns (`select(prefetching:)`);
        /// empty when SQL sorts by the collation or not at all.
        var checkedTerms: ArraySlice<SortTerm> = []

        /// Where a checked sort term is read: a column of the table's, read
        /// anyway (by name), or the `n`th of the columns added after all the others.
        enum CheckedColumn {
            case table(String)
            case added(Int)
        }

        /// The SQL with the rows' columns when `prefetching`, and where each
        /// checked sort term is read.
        ///
        /// Prefetching selects `t0.*` alone, which holds `Z_PK` and `Z_ENT`:
        /// naming them again made every row of an ORDER BY two fields longer,
        /// and SQLite's sorter compares keys with its fast text and integer
        /// comparators only while a row has fewer than 13 fields (key terms,
        /// columns and one), else through its general record comparison:
        /// ~3,500 instructions a photo at 100k (fetch-graph 18,965 → 15,403).
        func select(prefetching: Bool) -> (sql: String, checked: [(column: CheckedColumn, ascending: Bool)]) {
            var head = prefetching ? "SELECT t0.*" : SQLiteFetchExecution.selectIDs
            var checked: [(column: CheckedColumn, ascending: Bool)] = []
            var added = 0
            for term in checkedTerms {
                if prefetching, let column = term.tableColumn {
                    checked.append((.table(column), term.ascending))
                } else {
                    head += ", " + term.expression
                    checked.append((.added(added), term.ascending))
                    added += 1
                }
            }
            // A String, not the Substring: `+` with one runs generic code that looks up conformances.
            return (head + String(sql.dropFirst(SQLiteFetchExecution.selectIDs.count)), checked)
        }
        var inMemory: Bool { !residual.isEmpty || sortsInMemory }
    }

    /// The number of selected rows: `SELECT COUNT(*)` of the fetch's own
    /// selection (over its SELECT when a window applies), unless part of it
    /// runs in memory; then the IDs are selected and counted. Without a
    /// predicate on an entity alone in its table this is Core Data's
    /// `SELECT COUNT(*) FROM <table>`, which SQLite answers from the table's
    /// b-tree pages without decoding a row.
    func count() throws -> Int {
        guard let entity = store.mapping.entity(fetch.entity) else { return 0 }
        let plan = plan(entity, order: .none)
        guard !plan.inMemory else { return try run().ids.count }
        let sql = plan.windowed ? "SELECT COUNT(*) FROM (\(plan.sql))" : "SELECT COUNT(*)\(plan.selection)"
        return try store.readOneQuery { db in
            let statement = try db.makeStatement(sql: sql)
            try statement.bind(plan.arguments)
            return try Int.fetchOne(statement) ?? 0
        }
    }

    /// The selected IDs in order, and the records read with them. With
    /// `sortingRecords`, records read in no window are sorted in memory
    /// where ``SQLiteRecordSort`` can (else, in a file too large for it, or
    /// when a row's values do not order as its columns, by SQL). `compare:`
    /// strings sort by their bytes when SQL sorts a whole selection, unless
    /// the rows turn out not to be in `compare:` order (`bytewise` false: then by the collation).
    func run(sortingRecords: Bool = true, bytewise: Bool = true) throws -> StoreFetchResult {
        guard let entity = store.mapping.entity(fetch.entity) else { return StoreFetchResult(ids: StoreObjectIDs([])) }
        let request = fetch.request
        let readsRecords = request.resultType == .managedObjectResultType && request.includesPropertyValues
            && request.fetchBatchSize == 0
        let windowed = fetch.appliesWindow && (request.fetchLimit > 0 || request.fetchOffset > 0)
        // A sort taken in memory is one SQL could express: the SELECT goes without ORDER BY.
        var recordSort = readsRecords && !windowed && sortingRecords
            ? SQLiteRecordSort(request.sortDescriptors ?? [], entity: entity) : nil
        let order: OrderBy = bytewise ? .bytewise : .collated
        var plan = plan(entity, order: recordSort == nil ? order : .none)
        if recordSort != nil, plan.inMemory {
            // Part of the predicate is left to memory: the records are not read with the rows.
            recordSort = nil
            plan = self.plan(entity, order: order)
        }
        let prefetches = !plan.inMemory && readsRecords
        // Prefetching selects the rows' columns too, so the records come with
        // the IDs instead of from a second pass over the result's keys.
        let (sql, checked) = plan.select(prefetching: prefetches)
        // A damaged Z_ENT index can select a row the table gives another Z_ENT
        // (SQLite matches the index entry and reads the table's value): such a
        // row is not one of the fetched entities, whatever the WHERE said.
        let fetched = request.includesSubentities ? entity.numbers : entity.number...entity.number
        var disordered = false
        let read = try store.readOneQuery { db -> (SelectedKeys, [StoreSnapshot])? in
            var keys = SelectedKeys(store: store, numbers: fetched)
            var snapshots: [StoreSnapshot] = []
            let reader = SQLiteRecordReader(store: store, db: db)
            let statement = try db.makeStatement(sql: sql)
            let layout = SQLiteRowLayout(columnNames: statement.columnNames)
            if let recordSort {
                guard try SQLiteRecordSort.isSmall(db),
                      let reads = layout.reads(of: entity.description, in: store.mapping),
                      recordSort.locateColumns(in: reads) else { return nil }
            }
            try statement.bind(plan.arguments)
            let rows = try Row.fetchCursor(statement)
            let columns = SQLiteColumnReader(statement: statement.sqliteStatement)
            let added = checked.count(where: { if case .added = $0.column { true } else { false } })
            let firstAdded = statement.columnCount - added
            let checkedKeys = checked.compactMap { term -> SQLiteBytewiseOrderCheck.Key? in
                let position: Int? = switch term.column {
                case .table(let name): layout.position(of: name)
                case .added(let index): firstAdded + index
                }
                return position.map { SQLiteBytewiseOrderCheck.Key(column: Int32($0), ascending: term.ascending) }
            }
            guard checkedKeys.count == checked.count else {
                disordered = true  // a checked column is missing: unreachable, as the SELECT names each
                return nil
            }
            var check = checkedKeys.isEmpty ? nil : SQLiteBytewiseOrderCheck(keys: checkedKeys)
            // Where `t0.*` put the key and the entity; first in the other SELECTs. (Opening the store
            // refuses a table without them, so the error is a second line of defence.)
            guard let pkPosition = prefetches ? layout.position(of: "Z_PK") : 0,
                  let entityPosition = prefetches ? layout.position(of: "Z_ENT") : 1 else {
                throw NSError.coreData(NSPersistentStoreOperationError,
                                       "The table \(entity.table) has no Z_PK or Z_ENT column.")
            }
            while try rows.next() != nil {
                if check?.rowKeepsOrder(statement.sqliteStatement) == false {
                    disordered = true
                    return nil
                }
                guard let pk = columns.integer(pkPosition),
                      let number = columns.integer(entityPosition).flatMap({ Int(exactly: $0) }),
                      fetched.contains(number) else { continue }
                if prefetches {
                    guard let family = keys.family(of: number),
                          let reads = layout.reads(number: number, in: store.mapping) else { continue }
                    guard let snapshot = reader.snapshot(of: .record(family, primaryKey: pk), from: columns,
                                                         reads: reads) else { continue }
                    if let recordSort, !recordSort.columnsOrderAsRead(statement.sqliteStatement, record: snapshot) {
                        return nil
                    }
                    snapshots.append(snapshot)
                } else {
                    keys.append(pk: pk, entityNumber: number)
                }
            }
            if let recordSort {
                recordSort.sort(&snapshots)
                store.recordSortCount += 1
            }
            return (keys, snapshots)
        }
        if disordered {
            store.bytewiseSortFallbackCount += 1
            return try run(sortingRecords: sortingRecords, bytewise: false)
        }
        guard let (keys, snapshots) = read else { return try run(sortingRecords: false, bytewise: bytewise) }
        // The result's IDs are made from the records, when asked for.
        if prefetches {
            let ids = StoreObjectIDs(count: snapshots.count) { snapshots[$0].identity.permanentRecord }
            return StoreFetchResult(ids: ids, records: snapshots)
        }
        let ids = keys.objectIDs()
        guard plan.inMemory else { return StoreFetchResult(ids: ids) }
        let loader = StoreRowLoader()
        let rest = NSFetchRequest<NSFetchRequestResult>()
        rest.predicate = plan.residual.isEmpty ? nil : loader.rowsForObjectConstants(
            in: plan.residual.count == 1 ? plan.residual[0] : NSCompoundPredicate(andPredicateWithSubpredicates: plan.residual))
        rest.sortDescriptors = plan.sortsInMemory ? request.sortDescriptors : nil
        rest.fetchLimit = request.fetchLimit
        rest.fetchOffset = request.fetchOffset
        let selected = try FetchEvaluation.filterAndSort(loader.rows(Array(ids)), request: rest, appliesWindow: fetch.appliesWindow)
        return StoreFetchResult(ids: StoreObjectIDs(selected.map(\.id)))
    }

    /// The selected rows as `Z_PK` and `Z_ENT` only: 12 bytes a row; and the ID family of each
    /// fetched entity, which rows read with their records use too.
    private struct SelectedKeys {
        /// The ID families of the fetched entity numbers.
        private let families: SQLiteIDFamilies
        private var primaryKeys: [Int64] = []
        private var entityNumbers: [Int32] = []

        /// No keys yet, of rows whose entity numbers are among `numbers`.
        init(store: SQLiteStore, numbers: ClosedRange<Int>) {
            families = SQLiteIDFamilies(store: store, numbers: numbers)
        }

        /// The ID family of `number`, one of `numbers`; nil when it names no entity of the store.
        func family(of number: Int) -> ObjectIDFamily? { families[number] }

        /// Keeps the row's key when its entity number, one of `numbers`, names an entity of the store.
        mutating func append(pk: Int64, entityNumber: Int) {
            guard family(of: entityNumber) != nil else { return }
            primaryKeys.append(pk)
            entityNumbers.append(Int32(entityNumber))
        }

        /// The IDs, made on access.
        func objectIDs() -> StoreObjectIDs {
            StoreObjectIDs(count: primaryKeys.count) { [primaryKeys, entityNumbers, families] in
                (families[Int(entityNumbers[$0])]!, primaryKeys[$0])
            }
        }
    }

    /// The SELECT `run()` starts with (reading the rows' records when
    /// `prefetching`); for tests of its plan.
    func selectSQL(prefetching: Bool) -> String? {
        guard let entity = store.mapping.entity(fetch.entity) else { return nil }
        return plan(entity, order: .bytewise).select(prefetching: prefetching).sql
    }

    /// The unsorted SELECT of the selected rows' `Z_PK, Z_ENT` with its
    /// arguments, when SQL expresses the whole selection; nil when part of
    /// it would run in memory.
    func keySelection() -> (sql: String, arguments: [DatabaseValue])? {
        guard let entity = store.mapping.entity(fetch.entity) else { return nil }
        let plan = plan(entity, order: .none)
        return plan.inMemory ? nil : (plan.sql, plan.arguments)
    }

    /// The selection as the condition of a statement on its table alone
    /// (`DELETE FROM <table> AS t0 WHERE …`, `UPDATE <table> AS t0 SET … WHERE …`),
    /// when SQL expresses it whole without joins or a window; otherwise nil,
    /// and `keySelection()` serves as a subquery.
    func tableCondition() -> (condition: String, arguments: [DatabaseValue])? {
        guard let entity = store.mapping.entity(fetch.entity) else { return nil }
        let plan = plan(entity, order: .none)
        let windowed = fetch.request.fetchLimit > 0 || fetch.request.fetchOffset > 0
        guard !plan.inMemory, !plan.hasJoins, !windowed else { return nil }
        return (plan.conditions.isEmpty ? "1" : plan.conditions.joined(separator: " AND "), plan.arguments)
    }

    /// How a plan orders its rows.
    enum OrderBy {
        /// No ORDER BY (counts, key selections, a sort left to memory).
        case none
        /// Strings by the collations of their selectors.
        case collated
        /// `compare:` strings by their bytes (SQLite's BINARY collation) when
        /// the rows can be checked (no LIMIT/OFFSET in SQL, no other string
        /// collation), the rest as `collated`.
        case bytewise
    }

    /// Compiles the request: entity range, predicate conjuncts, and the
    /// ORDER BY `order` asks for; the window only when nothing is left to
    /// memory. Unordered plans (for counting) never leave the sort to memory.
    ///
    /// An entity alone in its table (no superentity, no sub-entities) needs no
    /// `Z_ENT` condition, and Core Data's SQL has none for it (its count is
    /// `SELECT COUNT(*) FROM ZITEM`, fatbobman.com/en/posts/countincoredata).
    /// A damaged file's row with another `Z_ENT` in such a table is then
    /// counted, as by Core Data; fetches still skip it (`run()`).
    private func plan(_ entity: SQLiteMapping.Entity, order: OrderBy) -> Plan {
        let request = fetch.request
        let query = SQLiteQuery(mapping: store.mapping)
        let scope = SQLiteQuery.Scope(query: query, alias: query.newAlias(), entity: entity)
        let aloneInTable = entity.description.superentity == nil && entity.numbers.count == 1
        var conditions = aloneInTable ? [] : [request.includesSubentities
            ? "t0.Z_ENT BETWEEN \(entity.numbers.lowerBound) AND \(entity.numbers.upperBound)"
            : "t0.Z_ENT = \(entity.number)"]
        var residual: [NSPredicate] = []
        let compiler = SQLitePredicateCompiler(query: query)
        for part in Self.conjuncts(request.predicate) {
            if let sql = query.attempt({ compiler.condition(part, in: scope) }) { conditions.append(sql) } else { residual.append(part) }
        }
        let terms = order == .none ? [] : Self.sortTerms(request.sortDescriptors ?? [], query: query, scope: scope)
        var selection = " FROM \(entity.table) t0"
        for join in scope.joins { selection += " " + join }
        if !conditions.isEmpty { selection += " WHERE " + conditions.joined(separator: " AND ") }
        var plan = Plan(sql: "", arguments: query.arguments, residual: residual, sortsInMemory: terms == nil,
                        conditions: conditions, hasJoins: !scope.joins.isEmpty, selection: selection)
        // A window's size does not depend on the order, so counts skip ORDER BY.
        plan.windowed = !plan.inMemory && fetch.appliesWindow && (request.fetchLimit > 0 || request.fetchOffset > 0)
        var orderBy = ""
        if order != .none {
            let terms = terms ?? []
            // A window's rows cannot be checked: the rows SQL left out decide which rows it holds.
            let checked = order == .bytewise && !plan.windowed ? Self.checkedTerms(terms) : 0
            plan.checkedTerms = terms[..<checked]
            let sql = terms.map { $0.sql(bytewise: checked > 0) } + ["t0.Z_PK"]
            orderBy = " ORDER BY " + sql.joined(separator: ", ")
        }
        plan.sql = Self.selectIDs + selection + orderBy
        if plan.windowed {
            plan.sql += " LIMIT \(request.fetchLimit > 0 ? request.fetchLimit : -1) OFFSET \(max(request.fetchOffset, 0))"
        }
        return plan
    }

    private static let selectIDs = "SELECT t0.Z_PK, t0.Z_ENT"

    /// The parts of a top-level AND, each compiled or evaluated on its own.
    static func conjuncts(_ predicate: NSPredicate?) -> [NSPredicate] {
        guard let predicate else { return [] }
        if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType == .and {
            return compound.predicates.flatMap(conjuncts)
        }
        return [predicate]
    }
}
