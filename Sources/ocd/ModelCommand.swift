import ArgumentParser
import OpenCoreDataTools

/// `ocd model MODEL`: validate a model file and print what it declares.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Validate a model (.xcdatamodeld, .xcdatamodel or its contents file); print or draw its entities.",
        discussion: "Exits with status 1 and a message naming the file, line, entity and property when the model is broken.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, svg, dot, mermaid
    }

    enum Diagram: String, ExpressibleByArgument, CaseIterable {
        case dot, mermaid, svg
    }

    @Argument(help: "The model file or folder.", completion: .file())
    var model: String

    @Option(help: ArgumentHelp("Output format: text, json, or a diagram: svg, dot (Graphviz) or mermaid.",
                               discussion: "svg is drawn by ocd itself: entities with their attributes, relationships "
                                   + "with to-one/to-many arrowheads, names and delete rules, inheritance."))
    var format: Format = .text

    // Kept for scripts written before the diagrams became formats.
    @Option(help: .hidden)
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
        switch diagram.map({ Format(rawValue: $0.rawValue)! }) ?? format {
        case .dot: print(ModelDiagram.dot(loaded))
        case .mermaid: print(ModelDiagram.mermaid(loaded))
        case .svg: print(ModelDiagram.svg(loaded))
        case .json: print(ModelSummary.json(loaded))
        case .text: print(ModelSummary.text(loaded))
        }
    }
}
