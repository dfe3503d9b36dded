import ArgumentParser
import OpenCoreDataTools

/// `ocd inspect STORE [--model MODEL]`: what a Core Data SQLite file holds.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a Core Data SQLite store's UUID, metadata and entities with object counts.",
        discussion: """
            Reads Z_METADATA and Z_PRIMARYKEY, so no model is needed. With --model, also says whether \
            that model opens the store: by equal version hashes, or by schema (entity numbers and columns fit) \
            when the hashes differ, as they do for stores written on Apple devices. Exits with status 1 \
            when the model does not fit the store.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The .sqlite file (its -wal file, if any, beside it).", completion: storeCompletion)
    var store: String

    @Option(help: "A model (.xcdatamodeld, .xcdatamodel or its contents file) to check against the store.",
            completion: modelCompletion)
    var model: String?

    @Option(help: "With --model: the model's configuration the store holds (default: each is tried).")
    var configuration: String?

    @Flag(help: "Also print the model rebuilt from the store's schema (as `ocd model` does) and what it could not recover.")
    var reconstruct = false

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup var progress: ProgressOptions

    func run() throws {
        var misfit: String?
        try reportingErrors {
            let inspection = try StoreInspection(store: URL(fileURLWithPath: store), model: model.map { URL(fileURLWithPath: $0) },
                                                 configuration: configuration,
                                                 reconstruct: reconstruct, progress: progress.reporter("entities counted"))
            print(format == .json ? inspection.json : inspection.text)
            if case .incompatible(let reason) = inspection.verdict { misfit = reason }
        }
        // The report is printed either way; the status lets scripts see a model that does not fit.
        if let misfit {
            FileHandle.standardError.write(Data("error: \(misfit)\n".utf8))
            throw ExitCode.failure
        }
    }
}
