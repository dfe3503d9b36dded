import ArgumentParser
import OpenCoreDataTools

/// `ocd model MODEL`: validate a model file and print what it declares.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Validate a model (.xcdatamodeld, .xcdatamodel or its contents file) and print its entities.",
        discussion: "Exits with status 1 and a message naming the file, line, entity and property when the model is broken.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    enum Diagram: String, ExpressibleByArgument, CaseIterable {
        case dot, mermaid
    }

    @Argument(help: "The model file or folder.")
    var model: String

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Print an entity-relationship diagram instead: dot (Graphviz) or mermaid.")
    var diagram: Diagram?

    @Option(help: "For a .xcdatamodeld, the version to read instead of the current one.")
    var version: String?

    func run() throws {
        let url = URL(fileURLWithPath: model)
        let loaded: NSManagedObjectModel
        do {
            if let version {
                loaded = try ModelVersionBundle(url: url).model(named: version)
            } else {
                loaded = try NSManagedObjectModel.load(contentsOf: url)
            }
        } catch {
            // A broken model is the user's data, not a usage mistake: say what is wrong, no usage text.
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        for warning in loaded.validationWarnings {
            FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
        }
        switch diagram {
        case .dot: print(ModelDiagram.dot(loaded))
        case .mermaid: print(ModelDiagram.mermaid(loaded))
        case nil: print(format == .json ? ModelSummary.json(loaded) : ModelSummary.text(loaded))
        }
    }
}
