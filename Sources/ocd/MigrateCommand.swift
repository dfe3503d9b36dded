import ArgumentParser
import OpenCoreDataTools

/// `ocd migrate STORE --model MODEL.xcdatamodeld [--to VERSION] [--dry-run]`:
/// Core Data's lightweight migration of a store file to a model version.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a Core Data SQLite store to a version of its model (lightweight, in place).",
        discussion: """
            Finds the version of the model that wrote the store (by its version hashes, else by its schema, \
            else the model the store caches), prints the mapping Core Data infers to the target version \
            (entities added, removed, copied, transformed; properties added, removed, renamed), then migrates \
            the file in place in one SQLite transaction: a failure leaves it as it was. Progress goes to stderr \
            on a terminal (or with --progress) as "migrated: n%". Exits with status 1, \
            with the reason, when no mapping can be inferred or the data does not fit the target version.
            """)

    @Argument(help: "The .sqlite file (its -wal file, if any, beside it). Back it up first.",
              completion: storeCompletion)
    var store: String

    @Option(help: "The .xcdatamodeld holding the store's version and the target version.",
            completion: modelCompletion)
    var model: String

    @Option(help: "The target version's name (default: the model's current version).")
    var to: String?

    @Flag(help: "Print the inferred mapping without migrating.")
    var dryRun = false

    @OptionGroup var progress: ProgressOptions

    func run() throws {
        try reportingErrors {
            let storeURL = URL(fileURLWithPath: store)
            let plan = try StoreMigrationPlan(store: storeURL, model: URL(fileURLWithPath: model), to: to)
            print(plan.text)
            guard !dryRun, plan.mapping != nil else { return }
            let start = Date()
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: plan.destination)
            let added = try progress.watching("migrated") {
                try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: [
                    NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
            }
            try coordinator.remove(added)
            print(String(format: "migrated to %@ in %.2f s", plan.destinationName, Date().timeIntervalSince(start)))
        }
    }
}
