import Foundation
@testable import OpenCoreDataCore
import TestScratch

/// The versions of each corpus model file as the `.xcdatamodeld` they came
/// from: shared/corpus/models holds `<owner>__<repo>__<Model>__<Version>.xml`
/// (and `<owner>__<repo>__<Model>__xccurrentversion.plist`), copied here
/// into a temporary `Model.xcdatamodeld/<Version>.xcdatamodel/contents`.
/// Versions are in Finder order, the last one current (the corpus's
/// `.xccurrentversion` files name versions before their spaces became `_`).
enum CorpusVersions {
    /// Every model prefix (`<owner>__<repo>__<Model>__`) with at least two versions, sorted.
    static var prefixesWithSeveralVersions: [String] {
        var counts: [String: Int] = [:]
        for file in Corpus.files(in: Corpus.models, suffix: ".xml") {
            counts[prefix(of: file.lastPathComponent), default: 0] += 1
        }
        return counts.filter { $0.value > 1 }.map(\.key).sorted()
    }

    /// `<owner>__<repo>__<Model>__` of a corpus model file name.
    static func prefix(of name: String) -> String {
        String(name[..<name.range(of: "__", options: .backwards)!.upperBound])
    }

    /// A temporary `.xcdatamodeld` holding every version of the corpus model `prefix`.
    static func bundle(_ prefix: String) throws -> ModelVersionBundle {
        let url = ScratchDirectory.url("ocd-tests-\(UUID().uuidString)/Model.xcdatamodeld")
        for file in Corpus.files(in: Corpus.models, suffix: ".xml") where file.lastPathComponent.hasPrefix(prefix) {
            let version = String(file.lastPathComponent.dropFirst(prefix.count).dropLast(4))
            let folder = url.appendingPathComponent(version + ".xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent("contents"))
        }
        return try ModelVersionBundle(url: url)
    }
}
