import Testing
@testable import OpenCoreDataCore
import OpenCoreDataCodegen
import TestScratch

/// Every corpus model whose entities ask for code generation produces code
/// that compiles against OpenCoreData, checked with `swiftc -typecheck`.
@Suite(.enabled(if: Corpus.models != nil, "shared/corpus/models is absent"))
struct CodegenCorpusTests {
    /// A model's generated sources, plus the classes its user would write by
    /// hand: those of "Category/Extension" and "Manual/None" entities.
    static func sources(for model: NSManagedObjectModel, name: String, options: CodeGenerationOptions = .init()) -> [GeneratedFile] {
        let generated = CodeGenerator(options: options).files(for: model, modelName: name)
        let names = Set(generated.map(\.name))
        var all = options
        all.scope = .allEntities
        let handWritten = CodeGenerator(options: all).files(for: model, modelName: name)
            .filter { $0.name.hasSuffix("+CoreDataClass.swift") && !names.contains($0.name) }
        return generated + handWritten
    }

    /// Writes `files` to a fresh folder and type-checks them as one module.
    static func typecheck(_ files: [GeneratedFile], in folder: URL) throws -> Subprocess.Run {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        }
        return try Subprocess.run(["swiftc", "-typecheck", "-swift-version", "6"] + Subprocess.moduleSearchArguments
                                  + files.map { folder.appendingPathComponent($0.name).path })
    }

    @Test func everyCorpusModelWithCodegenCompiles() throws {
        let started = Date()
        let candidates = try Corpus.files(in: Corpus.models, suffix: ".xml").filter { url in
            let text = try String(contentsOf: url, encoding: .utf8)
            return text.contains("codeGenerationType=\"class\"") || text.contains("codeGenerationType=\"category\"")
        }
        let corpusJobs: [(name: String, files: [GeneratedFile])] = try candidates.map { url in
            let name = CodeGenerator.modelName(of: url)
            return (name, Self.sources(for: try NSManagedObjectModel.load(contentsOf: url), name: name))
        }
        // The model with one of everything, in both to-many styles.
        let jobs = corpusJobs + [
            ("Zoo", Self.sources(for: CodegenOptionsTests.model(), name: "Zoo")),
            ("ZooSwift", Self.sources(for: CodegenOptionsTests.model(), name: "ZooSwift", options: .init(toManyStyle: .swift))),
        ]

        let scratch = ScratchDirectory.url("ocd-codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let failures = Failures()
        // Two compilers at a time: the machines this runs on have two cores.
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: jobs.count, by: 2) {
                let job = jobs[index]
                do {
                    let run = try Self.typecheck(job.files, in: scratch.appendingPathComponent(job.name))
                    if run.status != 0 { failures.add("\(job.name):\n\(run.output.prefix(3000))") }
                } catch {
                    failures.add("\(job.name): \(error)")
                }
            }
        }
        let failed = failures.all
        print("codegen corpus: \(jobs.count - failed.count) of \(jobs.count) models compile (\(candidates.count) corpus models with codegen + 2 built in code), \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(candidates.count >= 50)
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
    }
}

/// Failures collected from the compiler workers.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}
