import Foundation

/// The shared corpus of real files written by Xcode and Core Data
/// (../shared/corpus beside the repository). Tests that use it skip cleanly
/// when it is absent.
enum Corpus {
    static let root: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() } // …/Tests/OpenCoreDataTests/Support/Corpus.swift → repo
        let candidates = [
            ProcessInfo.processInfo.environment["OCD_CORPUS"].map { URL(fileURLWithPath: $0) },
            url.deletingLastPathComponent().appendingPathComponent("shared/corpus"),
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0.path) }
    }()

    static var models: URL? { root?.appendingPathComponent("models") }
    static var stores: URL? { root?.appendingPathComponent("stores") }

    /// The files in a corpus folder whose names end with `suffix`, sorted.
    static func files(in folder: URL?, suffix: String) -> [URL] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { folder.appendingPathComponent($0) }
    }
}
