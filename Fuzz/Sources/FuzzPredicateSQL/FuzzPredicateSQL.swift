import OpenCoreData
import FuzzSupport

// (d) Predicates to SQL: the input, as UTF-8, is parsed with fixed arguments
// and fetched from a small fixed SQLite store of the fixed model (people,
// employees, teams, pets, tags): objects, a count, and sorted by a key. Each
// fetch must return or throw; the count must agree with the objects (unless
// the predicate calls random() or now()).

nonisolated(unsafe) var context: NSManagedObjectContext!

@_cdecl("LLVMFuzzerInitialize")
public func initializePredicateSQL(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    let url = FuzzScratch.folder.appendingPathComponent("Fixed.sqlite")
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    do {
        try FuzzStore.create(at: url, people: 30, seed: 19)
        context = try FuzzStore.open(url, model: FuzzModel.make())
    } catch {
        fatalError("cannot make the fixed store: \(error)")
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicateSQL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let format = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let predicate = try? NSPredicate.parse(format, arguments: FuzzArguments.values) else { return 0 }
    // random() and now() give each fetch its own answer: their counts need not agree.
    let deterministic = !["random", "now"].contains { predicate.predicateFormat.lowercased().contains($0) }
    for entity in ["Person", "Employee"] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = predicate
        guard let objects = try? context.fetch(request) else { continue }
        if deterministic, let count = try? context.count(for: request), count != objects.count {
            fatalError("\(format.debugDescription): count \(count), fetched \(objects.count)")
        }
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true),
                                   NSSortDescriptor(key: "team.rank", ascending: false)]
        request.fetchLimit = 7
        _ = try? context.fetch(request)
    }
    context.reset()
    return 0
}

/// The target's entry point as SwiftPM links it (see ``runLibFuzzer``).
@_cdecl("FuzzPredicateSQL_main")
public func fuzzPredicateSQLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzPredicateSQL)
}
