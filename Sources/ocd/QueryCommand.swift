import ArgumentParser
import OpenCoreDataTools

/// `ocd query STORE --model MODEL --entity NAME`: objects of a store, filtered and sorted.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the objects of one entity of a Core Data SQLite store, with attributes and to-one relationships.",
        discussion: """
            Opens the store read-only with the model (for a .xcdatamodeld, the version that fits the store). \
            Without --model, the model is rebuilt from the store's tables (see `ocd inspect --reconstruct`). \
            Objects of subentities are included. To-one relationships print as the destination's object URI. \
            The object's own URI is the column `id` (`objectID` when the entity has a property named id).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    @Argument(help: "The .sqlite file (its -wal file, if any, beside it).", completion: storeCompletion)
    var store: String

    @Option(help: ArgumentHelp("The model (.xcdatamodeld, .xcdatamodel or its contents file).",
                               discussion: "Without it, a model is rebuilt from the store's schema, with "
                                   + "property names as the store's model cache spells them (lower case without one)."),
            completion: modelCompletion)
    var model: String?

    @Option(help: ArgumentHelp("The model's configuration the store holds.",
                               discussion: "Without it, the default configuration is tried, then each of the model's."))
    var configuration: String?

    @Option(help: "The entity whose objects to print.")
    var entity: String

    @Option(help: "An NSPredicate format string, e.g. \"name BEGINSWITH 'A' AND age > 30\".")
    var predicate: String?

    // Unconditional, so that a descending key like -date is not taken for an option.
    @Option(parsing: .unconditional, help: "Sort keys, comma-separated; a leading - sorts descending (e.g. -date,name).")
    var sort: String?

    @Option(help: "At most this many objects.")
    var limit: Int?

    @Option(help: "Output format: table, json or csv.")
    var format: Format = .table

    @OptionGroup var progress: ProgressOptions

    func run() throws {
        try reportingErrors {
            // Parsed first: a typo should not wait for the store to open, and its message gives the offset.
            let parsed = try predicate.map { try NSPredicate.parse($0) }
            let url = URL(fileURLWithPath: store)
            let file = try model.map {
                try StoreFile(store: url, model: URL(fileURLWithPath: $0), configuration: configuration)
            }
                ?? StoreFile(reconstructing: url)
            let keys = sort.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
            let table = try ObjectTable(coordinator: file.coordinator, entityName: entity, predicate: parsed, sortKeys: keys, limit: limit,
                                        progress: progress.reporter("\(entity) objects read"))
            switch format {
            case .table: print(table.table)
            case .json: print(table.json)
            case .csv: print(table.csv)
            }
        }
    }
}

