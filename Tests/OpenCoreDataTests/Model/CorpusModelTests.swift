import Testing
@testable import OpenCoreData

@Suite struct CorpusModelTests {
    @Test(.enabled(if: Corpus.models != nil, "shared/corpus/models is absent"))
    func everyCorpusModelLoads() throws {
        let files = Corpus.files(in: Corpus.models, suffix: ".xml")
        var failures: [String] = []
        var entities = 0
        for file in files {
            do {
                let model = try NSManagedObjectModel.load(contentsOf: file)
                entities += model.entities.count
            } catch {
                failures.append("\(error)")
            }
        }
        print("corpus models: \(files.count - failures.count) of \(files.count) loaded, \(entities) entities")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(files.count > 300)
    }
}
