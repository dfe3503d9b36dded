/// Dictionary results (`resultType = .dictionaryResultType`): one dictionary
/// per selected record, or per group of `propertiesToGroupBy`, holding the
/// values of `propertiesToFetch` — attributes, to-one relationships as
/// object IDs, key paths, and aggregates of `NSExpressionDescription`s
/// (`count:`, `sum:`, `min:`, `max:`, `average:` …) computed over each group.
/// Then `havingPredicate` (read against each dictionary),
/// `returnsDistinctResults` and the fetch window apply.
///
/// Works on records as stored (Core Data's dictionary results ignore unsaved
/// changes). Costs one key-path read per record and column, one aggregate
/// evaluation per group and column.
enum DictionaryResults {
    /// One column: its key in the dictionaries, and what computes it.
    private struct Column {
        var name: String
        var expression: NSExpression
        var isAggregate: Bool
    }

    static let aggregateFunctions: Set<String> = ["count:", "sum:", "min:", "max:", "average:", "median:", "mode:", "stddev:"]

    /// The dictionaries for `rows` (selected and sorted by the request). Throws
    /// NSCoreDataError when a column cannot be computed.
    static func dictionaries(_ rows: [StoreRow], request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription) throws -> [NSDictionary] {
        let columns = (request.propertiesToFetch ?? entity.attributesByName.keys.sorted().map { $0 as Any }).map(column)
        let groupBy = (request.propertiesToGroupBy ?? []).map(column).map(\.expression)
        var results: [NSDictionary]
        if groupBy.isEmpty && !columns.contains(where: \.isAggregate) {
            results = try rows.map { try dictionary(columns, group: [$0]) }
        } else {
            var groups: [[StoreRow]] = [], index: [NSArray: Int] = [:]
            for row in rows {
                let key = NSArray(array: try groupBy.map { try value($0, of: row) ?? NSNull() })
                if let at = index[key] { groups[at].append(row) } else { index[key] = groups.count; groups.append([row]) }
            }
            // Without grouping, aggregates cover every record, even none (count 0, sum 0).
            if groupBy.isEmpty && groups.isEmpty { groups = [[]] }
            results = try groups.map { try dictionary(columns, group: $0) }
        }
        if let having = request.havingPredicate { results = results.filter { having.evaluate(with: $0) } }
        if request.returnsDistinctResults {
            var seen = Set<NSDictionary>()
            results = results.filter { seen.insert($0).inserted }
        }
        return FetchEvaluation.window(results, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    private static func column(_ item: Any) -> Column {
        switch item {
        case let description as NSExpressionDescription:
            let expression = description.expression ?? NSExpression(forKeyPath: description.name)
            var isAggregate = false
            if case .function(let name, _, _) = expression.kind { isAggregate = aggregateFunctions.contains(name) }
            return Column(name: description.name, expression: expression, isAggregate: isAggregate)
        case let property as NSPropertyDescription:
            return Column(name: property.name, expression: NSExpression(forKeyPath: property.name), isAggregate: false)
        default:
            let path = "\(item)"
            return Column(name: path, expression: NSExpression(forKeyPath: path), isAggregate: false)
        }
    }

    /// A group's dictionary: aggregates over the group, other columns from its first record.
    private static func dictionary(_ columns: [Column], group: [StoreRow]) throws -> NSDictionary {
        let dictionary = NSMutableDictionary()
        for column in columns {
            let computed: Any?
            if column.isAggregate {
                computed = try aggregate(column.expression, over: group)
            } else if let first = group.first {
                computed = try value(column.expression, of: first)
            } else {
                computed = nil
            }
            if let computed { dictionary[column.name] = computed }
        }
        return dictionary
    }

    /// An aggregate function applied to its argument's values in `group`
    /// (key paths read through every record, as Core Data's SQL does).
    private static func aggregate(_ expression: NSExpression, over group: [StoreRow]) throws -> Any? {
        guard case .function(let name, _, let arguments) = expression.kind, let argument = arguments.first else { return nil }
        var values: [Any] = []
        for row in group { if let value = try value(argument, of: row) { values.append(value) } }
        if name == "count:" { return values.count }
        return try evaluate(NSExpression(forFunction: name, arguments: [NSExpression(forConstantValue: values)]), on: nil)
    }

    /// A column's value for one record: records become object IDs.
    private static func value(_ expression: NSExpression, of row: StoreRow) throws -> Any? {
        identifiers(try evaluate(expression, on: row))
    }

    private static func evaluate(_ expression: NSExpression, on object: Any?) throws -> Any? {
        do {
            return Values.normalized(try ExpressionEvaluator.value(of: expression, object: object, scope: EvaluationScope(context: nil)))
        } catch {
            throw NSError.coreData(NSCoreDataError, "The dictionary column \(expression) can't be computed: \(error)")
        }
    }

    private static func identifiers(_ value: Any?) -> Any? {
        switch value {
        case let row as StoreRow: row.id
        case let rows as [Any]: rows.map { identifiers($0) ?? NSNull() }
        default: value
        }
    }
}
