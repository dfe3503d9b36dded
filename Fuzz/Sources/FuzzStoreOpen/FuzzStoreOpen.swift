import OpenCoreData
import FuzzSupport

// (b) Store files: the input is a whole SQLite file (WAL folded in). It is
// opened without a model (the model rebuilt from its tables) and with the
// fixed model, and every property of every object is read; each must end in
// a thrown error or a full read.

let model = FuzzModel.make()

@_cdecl("LLVMFuzzerInitialize")
public func initializeStoreOpen(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    // With OCD_FUZZ_WRITE_SEEDS=<folder>: write stores of the fixed model there and stop.
    guard let folder = FuzzScratch.seedFolder else { return 0 }
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (people, seed) in [(0, 1), (3, 2), (12, 3), (40, 4)] as [(Int, UInt64)] {
            let url = folder.appendingPathComponent("fixed-model-\(people).sqlite")
            try FuzzStore.create(at: url, people: people, seed: seed)
        }
    } catch {
        fatalError("cannot write the seeds: \(error)")
    }
    exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreOpen(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(bytes: data, count: size)
    for model in [nil, model] {
        // Opening read-only may still write the -shm of a WAL file, so each open gets a fresh copy.
        let url = FuzzScratch.write(bytes, to: "Store.sqlite")
        guard let context = try? FuzzStore.open(url, model: model) else { continue }
        _ = try? FuzzStore.readFully(context)
    }
    return 0
}

/// The target's entry point as SwiftPM links it (see ``runLibFuzzer``).
@_cdecl("FuzzStoreOpen_main")
public func fuzzStoreOpenMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzStoreOpen)
}
