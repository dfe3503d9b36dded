import OpenCoreData
import FuzzSupport

// (a) Model files: the input is the `contents` XML of an .xcdatamodel. Reading
// it must load or throw. A model that loads must also write back to XML that
// reads back, give version hashes, and lay itself out as an SQLite store.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let url = FuzzScratch.write(Data(bytes: data, count: size), to: "Model.xcdatamodel/contents")
    guard let model = try? NSManagedObjectModel.load(contentsOf: url) else { return 0 }
    _ = model.entityVersionHashesByName
    let written = FuzzScratch.write(Data(model.modelFileXML.utf8), to: "Written.xcdatamodel/contents")
    do {
        _ = try NSManagedObjectModel.load(contentsOf: written)
    } catch {
        fatalError("a model that loaded wrote XML that does not load: \(error)")
    }
    let store = FuzzScratch.folder.appendingPathComponent("Model.sqlite")
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    _ = try? coordinator.addPersistentStore(type: .sqlite, at: store)
    return 0
}

/// The target's entry point as SwiftPM links it (see ``runLibFuzzer``).
@_cdecl("FuzzModelReader_main")
public func fuzzModelReaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzModelReader)
}
