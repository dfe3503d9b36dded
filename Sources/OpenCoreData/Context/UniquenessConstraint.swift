import Foundation

/// One uniqueness constraint as a save checks it: the property names, and the entity whose objects (with those of
/// its sub-entities) must not share their values. A constraint a sub-entity repeats from an ancestor is the
/// ancestor's, so it spans the whole hierarchy below it.
struct UniquenessConstraint: Hashable {
    let scope: NSEntityDescription
    let names: [String]

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.scope === rhs.scope && lhs.names == rhs.names }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(scope))
        hasher.combine(names)
    }

    /// The constraints that apply to objects of `entity`: its own and its ancestors'.
    static func all(for entity: NSEntityDescription) -> [UniquenessConstraint] {
        var chain: [NSEntityDescription] = []
        var next: NSEntityDescription? = entity
        while let current = next {
            chain.append(current)
            next = current.superentity
        }
        var found: [UniquenessConstraint] = []
        for declaring in chain.reversed() {
            for names in declaring.uniquenessConstraintNames where !found.contains(where: { $0.names == names }) {
                found.append(UniquenessConstraint(scope: declaring, names: names))
            }
        }
        return found
    }

    /// The key of `values` (one per name, in order); nil when one is nil, since a missing value conflicts with
    /// nothing (as SQLite's unique indexes treat NULL).
    static func key(_ values: [Any?]) -> [ConstraintKeyPart]? {
        var parts: [ConstraintKeyPart] = []
        parts.reserveCapacity(values.count)
        for value in values {
            guard let value, let part = ConstraintKeyPart(value) else { return nil }
            parts.append(part)
        }
        return parts
    }
}

/// A constraint value in a form that hashes and compares as the store compares values: numbers by value whatever
/// their Swift type, dates by time, relationship destinations by object ID.
enum ConstraintKeyPart: Hashable {
    case integer(Int64)
    case real(Double)
    case string(String)
    case data(Data)
    case date(Double)
    case uuid(UUID)
    case decimal(Decimal)
    case object(NSManagedObjectID)
    case other(AnyHashable)

    init?(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date.timeIntervalSinceReferenceDate)
        case let uuid as UUID: self = .uuid(uuid)
        case let url as URL: self = .string(url.absoluteString)
        case let data as Data: self = .data(data)
        case let decimal as Decimal: self = .decimal(decimal)
        case let object as NSManagedObject: self = .object(object.objectID)
        case let id as NSManagedObjectID: self = .object(id)
        case let bool as Bool: self = .integer(bool ? 1 : 0)
        case let integer as any BinaryInteger:
            guard let exact = Int64(exactly: integer) else { return nil }
            self = .integer(exact)
        case let real as any BinaryFloatingPoint:
            let double = Double(real)
            if let exact = Int64(exactly: double) { self = .integer(exact) } else { self = .real(double) }
        case let number as NSNumber:
            let double = number.doubleValue
            if let exact = Int64(exactly: double) { self = .integer(exact) } else { self = .real(double) }
        case let hashable as AnyHashable: self = .other(hashable)
        default: return nil
        }
    }
}
