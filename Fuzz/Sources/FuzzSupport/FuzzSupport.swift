import Foundation
import OpenCoreData
@_exported import CLibFuzzer

/// Runs libFuzzer on `callback`: the body of each target's main. SwiftPM
/// links an executable target's entry point as `<Target>_main` (and points
/// `main` at it), so libFuzzer's own main is not the one that runs; its
/// driver is called instead, with the process's arguments.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}

/// The fixed model the store and SQL targets use: every attribute type, a
/// hierarchy, to-one, to-many, ordered and many-to-many relationships.
///
/// Person (name, nick, age, score, active, born, photo, uuid, link, price,
/// small, ratio, blob: transformable) with sub-entity Employee (salary) →
/// team (Team: title, rank; members), pets (Pet: name, legs; owner; ordered),
/// tags ⟷ people (Tag: label), manager ⟷ reports.
public enum FuzzModel {
    public static func make() -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person"), employee = NSEntityDescription(name: "Employee")
        let team = NSEntityDescription(name: "Team"), pet = NSEntityDescription(name: "Pet")
        let tag = NSEntityDescription(name: "Tag")
        person.subentities = [employee]
        func pair(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
            a.inverseRelationship = b
            b.inverseRelationship = a
        }
        let teamOf = NSRelationshipDescription(name: "team", destination: team)
        let members = NSRelationshipDescription(name: "members", destination: person, toMany: true)
        pair(teamOf, members)
        let pets = NSRelationshipDescription(name: "pets", destination: pet, toMany: true,
                                             deleteRule: .cascadeDeleteRule, isOrdered: true)
        let owner = NSRelationshipDescription(name: "owner", destination: person)
        pair(pets, owner)
        let tags = NSRelationshipDescription(name: "tags", destination: tag, toMany: true)
        let people = NSRelationshipDescription(name: "people", destination: person, toMany: true)
        pair(tags, people)
        let manager = NSRelationshipDescription(name: "manager", destination: person)
        let reports = NSRelationshipDescription(name: "reports", destination: person, toMany: true)
        pair(manager, reports)
        let attributes: [(String, NSAttributeType)] = [
            ("name", .stringAttributeType), ("nick", .stringAttributeType), ("age", .integer32AttributeType),
            ("score", .doubleAttributeType), ("active", .booleanAttributeType), ("born", .dateAttributeType),
            ("photo", .binaryDataAttributeType), ("uuid", .UUIDAttributeType), ("link", .URIAttributeType),
            ("price", .decimalAttributeType), ("small", .integer16AttributeType), ("ratio", .floatAttributeType),
            ("blob", .transformableAttributeType),
        ]
        person.properties = attributes.map { NSAttributeDescription(name: $0.0, type: $0.1) }
            + [teamOf, pets, tags, manager, reports]
        employee.properties = [NSAttributeDescription(name: "salary", type: .doubleAttributeType)]
        team.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType),
                           NSAttributeDescription(name: "rank", type: .integer16AttributeType), members]
        pet.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType),
                          NSAttributeDescription(name: "legs", type: .integer16AttributeType), owner]
        tag.properties = [NSAttributeDescription(name: "label", type: .stringAttributeType), people]
        let model = NSManagedObjectModel()
        model.entities = [person, employee, team, pet, tag]
        return model
    }
}

/// Stores of the fixed model, and reading any store in full.
public enum FuzzStore {
    static let words = ["ann", "Ann", "anna", "bob", "Bób", "zoë", "Zoe", "émile", "", "b", "ANN", "a%b", "a_b", "it's"]

    /// Creates a store of the fixed model at `url` holding `people` people
    /// (with teams, pets and tags) made from `seed`.
    public static func create(at url: URL, people: Int, seed: UInt64) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: FuzzModel.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var random = SplitMix(state: seed)
        func insert(_ entity: String, _ values: [String: Any]) -> NSManagedObject {
            let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            for (key, value) in values { object.setValue(value, forKey: key) }
            return object
        }
        let teams = (0..<4).map { insert("Team", ["title": words[$0 % words.count], "rank": Int16($0 * 7)]) }
        let tags = (0..<5).map { insert("Tag", ["label": words[($0 + 3) % words.count]]) }
        var everyone: [NSManagedObject] = []
        for i in 0..<people {
            let person = insert(i % 3 == 2 ? "Employee" : "Person", [
                "name": words[random.next(words.count)], "age": Int32(random.next(60)),
                "score": Double(random.next(20)) / 2 - 5, "active": random.next(2) == 1,
                "born": Date(timeIntervalSinceReferenceDate: Double(random.next(20)) * 86_400),
                "photo": Data((0..<random.next(8)).map { UInt8($0) }), "uuid": UUID(),
                "link": URL(string: "https://example.com/\(i)")!, "price": Decimal(random.next(1000)) / 100,
                "small": Int16(random.next(100)), "ratio": Float(random.next(10)) / 4,
                "blob": ["k": i] as NSDictionary,
            ])
            if random.next(3) > 0 { person.setValue(words[random.next(words.count)], forKey: "nick") }
            if random.next(5) > 0 { person.setValue(teams[random.next(teams.count)], forKey: "team") }
            if person.entity.name == "Employee" { person.setValue(Double(random.next(100_000)), forKey: "salary") }
            for _ in 0..<random.next(3) { person.mutableSetValue(forKey: "tags").add(tags[random.next(tags.count)]) }
            for _ in 0..<random.next(3) {
                let pet = insert("Pet", ["name": words[random.next(words.count)], "legs": Int16(random.next(5))])
                pet.setValue(person, forKey: "owner")
            }
            if !everyone.isEmpty, random.next(2) == 0 {
                person.setValue(everyone[random.next(everyone.count)], forKey: "manager")
            }
            everyone.append(person)
        }
        try context.save()
    }

    /// Opens the store at `url` read-only, with `model` or (nil) with a model
    /// rebuilt from its tables.
    public static func open(_ url: URL, model: NSManagedObjectModel?) throws -> NSManagedObjectContext {
        let model = try model ?? SQLiteModelReconstruction(store: url).model
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
            NSIgnorePersistentStoreVersioningOption: true, NSReadOnlyPersistentStoreOption: true,
        ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Fetches every entity of the context's model and reads every property of
    /// every object; returns the number of objects.
    @discardableResult
    public static func readFully(_ context: NSManagedObjectContext) throws -> Int {
        var objects = 0
        for entity in context.persistentStoreCoordinator!.managedObjectModel.entities {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                objects += 1
                for (key, property) in entity.propertiesByName where !property.isTransient {
                    switch object.value(forKey: key) {
                    case let set as NSSet:
                        for case let related as NSManagedObject in set { _ = related.objectID }
                    case let set as NSOrderedSet:
                        for case let related as NSManagedObject in set { _ = related.objectID }
                    default: break
                    }
                }
            }
        }
        return objects
    }
}

/// A scratch folder of this process, emptied between inputs by the targets.
/// In memory (/dev/shm) where the system has it: every store input is a file
/// written, opened and deleted, so a disk's metadata updates and the page
/// cache's writeback would be most of an input's cost.
public enum FuzzScratch {
    public static let folder: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let parent = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let url = parent.appendingPathComponent("ocd-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Memory, so removed when the run ends normally (a crash leaves it, with the input that crashed).
        atexit { try? FileManager.default.removeItem(at: FuzzScratch.folder) }
        return url
    }()

    /// Writes `data` to `name` in the scratch folder, removing the SQLite
    /// siblings an earlier input left.
    public static func write(_ data: Data, to name: String) -> URL {
        let url = folder.appendingPathComponent(name)
        for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: data)
        return url
    }

    /// The folder named by OCD_FUZZ_WRITE_SEEDS, when the target is asked to write its seeds.
    public static var seedFolder: URL? {
        ProcessInfo.processInfo.environment["OCD_FUZZ_WRITE_SEEDS"].map { URL(fileURLWithPath: $0) }
    }
}

/// The format arguments every predicate target passes: strings, numbers,
/// collections, a date and nil, so `%@ %K %d` in an input have values.
public enum FuzzArguments {
    nonisolated(unsafe) public static let values: [Any] = [
        "name", "ann", 3, 2.5, ["ann", "bob"], Set([1, 2, 3]), Date(timeIntervalSinceReferenceDate: 86_400), NSNull(),
        "age", "team.title", true,
    ]
    nonisolated(unsafe) public static let object: [String: Any] = [
        "a": 1, "b": "text", "age": 34, "name": "Adam", "scores": [1, 2, 3], "v": 2,
        "team": ["title": "ann", "rank": 7, "members": [["name": "x"], ["name": "y"]]],
        "born": Date(timeIntervalSinceReferenceDate: 0),
    ]
    nonisolated(unsafe) public static let variables: [String: Any] = ["v": 3, "name": "ann", "list": [1, 2]]
}

/// SplitMix64, for stores made the same way every time.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
