@testable import OpenCoreDataCore

/// A key-value coding object backed by a dictionary; unknown keys stop the
/// program, as NSManagedObject's do.
final class Record: KeyValueCoding, Hashable, CustomStringConvertible, @unchecked Sendable {
    let values: [String: Any?]

    init(_ values: [String: Any?]) { self.values = values }

    func value(forKey key: String) -> Any? {
        guard let value = values[key] else { preconditionFailure("Record has no key \(key)") }
        return value
    }

    static func == (a: Record, b: Record) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { "Record(\((values["name"] ?? nil).map { "\($0)" } ?? "?"))" }
}

/// The fixed data the golden table evaluates against.
enum Fixtures {
    static let birthday = Date(timeIntervalSinceReferenceDate: 86_400 * 365 * 10)  // 2010-12-29
    static let matthew = Record(["name": "Matthew Jones", "firstName": "Matthew", "age": 28, "salary": 4000.0, "tags": ["a"]])
    static let jane = Record(["name": "Jane Doe", "firstName": "Jane", "age": 45, "salary": 6000.0, "tags": ["b", "c"]])
    static let ben = Record(["name": "ben", "firstName": "Ben", "age": 19, "salary": 2000.0, "tags": [String]()])
    static let eve = Record(["name": "Eve", "firstName": "Eve", "age": 51, "salary": 9000.0, "tags": ["a", "z"]])
    static let department = Record(["name": "Engineering", "parentName": "Root", "budget": 100_000, "manager": eve, "employees": NSSet(array: [matthew, jane])])
    static let history = Record(["name": "history", "completed": false])
    static let source = Record(["name": "source", "sourceId": "src-1", "id": "manga-9"])

    /// A person with every kind of attribute and relationship (SELF in the golden table).
    static let adam = Record([
        "name": "Adam Smith", "firstName": "Adam", "lastName": "Smith", "middleName": nil,
        "age": 34, "grade": "7", "birthday": birthday, "salary": 5000.0, "isManager": true,
        "email": "adam@example.com", "title": "Café Owner", "city": "Zürich", "street": "Straße 1",
        "int16": Int16(7), "float": Float(2.5), "decimal": Decimal(string: "10.25")!, "uint8": UInt8(3),
        "flag": NSNumber(value: true), "count": 3, "code": "A-17", "zip": "8001",
        "department": department, "manager": nil, "employees": [matthew, jane, ben],
        "friends": NSArray(array: [jane, eve]), "children": Set([ben]), "pets": NSOrderedSet(array: ["cat", "dog"]),
        "tags": Set(["swift", "linux"]), "scores": [3, 5, 8, 13], "empty": [Int](), "nothing": NSNull(),
        "attributes": ["color": "red", "size": "L"], "nicknames": ["Ad", "Smithy"],
        // corpus predicates (fetchRequest templates in shared/corpus/models)
        "sourceId": "src-1", "mangaId": "manga-9", "history": history, "humanName": "Adam",
        "parent": department, "parentName": "Engineering", "uuid": "6F9619FF-8B86-D011-B42D-00C04FC964FF",
        "oneToOne": Record(["name": "needle-owner"]), "string": "haystack",
        "latitude": 37.5, "creationDate": birthday,
    ])
}
