import GRDB

/// The comparisons at the leaves of a predicate: one operator between two
/// operands (a column, a count, an object, a constant), written so that the
/// result is 0 or 1 with the in-memory meaning, or nil when SQL cannot say
/// the same thing.
extension SQLitePredicateCompiler {
    func leaf(_ type: NSComparisonPredicate.Operator, _ left: Operand, _ right: Operand,
                      _ options: NSComparisonPredicate.Options) -> String? {
        switch (left, right) {
        case (.constant, .value), (.constant, .count), (.constant, .object):
            guard let flipped = Self.flipped(type) else { return nil }
            return leaf(flipped, right, left, options)
        case (.value(let sql, let kind, let attributeType), .constant(let constant)):
            return valueAndConstant(type, sql, kind, attributeType, constant, options, nullable: true)
        case (.count(let sql), .constant(let constant)):
            return valueAndConstant(type, sql, .number, .integer64AttributeType, constant, options, nullable: false)
        case (.value(let a, let kindA, _), .value(let b, let kindB, _)):
            guard kindA == kindB else { return nil }
            return twoValues(type, (a, true), (b, true), kindA, options)
        case (.value(let a, let kind, _), .count(let b)):
            return kind == .number ? twoValues(type, (a, true), (b, false), .number, options) : nil
        case (.count(let a), .value(let b, let kind, _)):
            return kind == .number ? twoValues(type, (a, false), (b, true), .number, options) : nil
        case (.count(let a), .count(let b)):
            return twoValues(type, (a, false), (b, false), .number, options)
        case (.object(let key, let number), .constant(let constant)):
            return objectAndConstant(type, key, number, constant)
        case (.object(let keyA, let numberA), .object(let keyB, let numberB)):
            guard type == .equalTo || type == .notEqualTo else { return nil }
            let same = "(\(keyA) IS \(keyB) AND \(numberA ?? "NULL") IS \(numberB ?? "NULL"))"
            // Without both entity columns the keys alone decide (same table).
            let sql = numberA != nil && numberB != nil ? same : "\(keyA) IS \(keyB)"
            return type == .equalTo ? sql : "NOT \(sql)"
        default:
            return nil
        }
    }

    private static func flipped(_ type: NSComparisonPredicate.Operator) -> NSComparisonPredicate.Operator? {
        switch type {
        case .equalTo, .notEqualTo: type
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: nil
        }
    }

    private func valueAndConstant(_ type: NSComparisonPredicate.Operator, _ sql: String, _ kind: SQLiteValueKind,
                                  _ attributeType: NSAttributeType, _ constant: Any?, _ options: NSComparisonPredicate.Options,
                                  nullable: Bool) -> String? {
        // Column references may repeat; an expression with bound arguments (a count) must not, and is never NULL.
        let present = nullable ? " AND \(sql) IS NOT NULL" : ""
        let folds = kind == .string && !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
        let column = folds ? "NSFOLD(\(sql), \(options.rawValue & 3))" : sql
        let collate = kind == .string ? " COLLATE NSCOMPARE" : ""
        func bound(_ value: Any) -> String? {
            guard SQLiteValueKind(constant: value) == kind,
                  var dbValue = SQLiteValueCoding.databaseValue(value, type: attributeType) else { return nil }
            if folds, let text = String.fromDatabaseValue(dbValue) { dbValue = ValueComparison.fold(text, options).databaseValue }
            return query.bind(dbValue)
        }
        switch type {
        case .equalTo, .notEqualTo:
            let op = type == .equalTo ? "IS" : "IS NOT"
            guard let constant else { return "\(sql) \(op) NULL" }
            return bound(constant).map { "\(column) \(op) \($0)" }
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard kind.isOrdered else { return nil }
            guard let constant else { return "0" }
            let op = [NSComparisonPredicate.Operator.lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">"][type] ?? ">="
            return bound(constant).map { "(\(column) \(op) \($0)\(collate)\(present))" }
        case .between:
            guard kind.isOrdered, let constant else { return constant == nil ? "0" : nil }
            guard let bounds = Collections.elements(of: constant), bounds.count == 2 else { return nil }
            guard let low = Values.normalized(bounds[0]), let high = Values.normalized(bounds[1]) else { return "0" }
            guard let lo = bound(low), let hi = bound(high) else { return nil }
            guard nullable else { return "(\(column) BETWEEN \(lo) AND \(hi))" }
            return "(\(column) >= \(lo)\(collate) AND \(column) <= \(hi)\(collate)\(present))"
        case .in:
            guard let constant else { return "0" }
            if kind == .string, let container = Values.string(constant) {
                return "NSSTRINGOP(\(NSComparisonPredicate.Operator.contains.rawValue), \(query.bind(container)), \(sql), \(options.rawValue & 3))"
            }
            guard let elements = Collections.elements(of: constant) ?? Collections.dictionaryValues(of: constant) else { return nil }
            var placeholders: [String] = []
            for element in elements {
                guard let element = Values.normalized(element) else { continue }
                guard let placeholder = bound(element) else { return nil }
                placeholders.append(placeholder)
            }
            return placeholders.isEmpty ? "0" : "(\(column) IN (\(placeholders.joined(separator: ", ")))\(present))"
        case .beginsWith, .endsWith, .like, .matches, .contains:
            guard let constant else { return "0" }
            guard kind == .string, let pattern = Values.string(constant) else { return nil }
            return "NSSTRINGOP(\(type.rawValue), \(sql), \(query.bind(pattern)), \(options.rawValue & 3))"
        case .customSelector:
            return nil
        }
    }

    private func twoValues(_ type: NSComparisonPredicate.Operator, _ left: (String, Bool), _ right: (String, Bool),
                           _ kind: SQLiteValueKind, _ options: NSComparisonPredicate.Options) -> String? {
        let (a, b) = (left.0, right.0)
        let present = [left, right].filter(\.1).map { " AND \($0.0) IS NOT NULL" }.joined()
        let folds = kind == .string && !options.intersection([.caseInsensitive, .diacriticInsensitive]).isEmpty
        let (x, y) = folds ? ("NSFOLD(\(a), \(options.rawValue & 3))", "NSFOLD(\(b), \(options.rawValue & 3))") : (a, b)
        let collate = kind == .string ? " COLLATE NSCOMPARE" : ""
        switch type {
        case .equalTo: return "\(x) IS \(y)"
        case .notEqualTo: return "\(x) IS NOT \(y)"
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard kind.isOrdered else { return nil }
            let op = [NSComparisonPredicate.Operator.lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">"][type] ?? ">="
            return "(\(x) \(op) \(y)\(collate)\(present))"
        case .beginsWith, .endsWith, .like, .matches, .contains:
            guard kind == .string else { return nil }
            return "IFNULL(NSSTRINGOP(\(type.rawValue), \(a), \(b), \(options.rawValue & 3)), 0)"
        default:
            return nil
        }
    }

    /// A to-one key (or SELF) against object IDs: equality, inequality, IN.
    private func objectAndConstant(_ type: NSComparisonPredicate.Operator, _ key: String, _ number: String?, _ constant: Any?) -> String? {
        func matches(_ value: Any) -> String? {
            guard let id = Self.objectID(value) else { return nil }
            // A temporary ID names no stored row: -1 is never handed out as a key.
            let pk = id.primaryKey ?? -1
            guard let number, let entityNumber = query.mapping.entity(id.entity)?.number else { return "\(key) IS \(query.bind(pk))" }
            return "(\(key) IS \(query.bind(pk)) AND \(number) IS \(query.bind(entityNumber)))"
        }
        switch type {
        case .equalTo, .notEqualTo:
            let sql = constant.map(matches) ?? "\(key) IS NULL"
            return sql.map { type == .equalTo ? $0 : "NOT \($0)" }
        case .in:
            guard let constant, let elements = Collections.elements(of: constant) else { return constant == nil ? "0" : nil }
            var parts: [String] = []
            for element in elements.compactMap(Values.normalized) {
                guard let part = matches(element) else { return nil }
                parts.append(part)
            }
            return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
        default:
            return nil
        }
    }

    /// The ID a constant names: an object ID, or a managed object's (the one
    /// place the store looks at an object, to read its ID).
    private static func objectID(_ value: Any) -> NSManagedObjectID? {
        (value as? NSManagedObjectID) ?? (value as? NSManagedObject)?.objectID
    }
}
