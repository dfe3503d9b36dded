import ArgumentParser
import OpenCoreDataTools

/// `ocd`: OpenCoreData's command-line tool for Core Data models and stores.
@main
struct OCD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocd",
        abstract: "Inspect Core Data models and stores on any platform.",
        subcommands: [ModelCommand.self, GenerateCommand.self, InspectCommand.self, QueryCommand.self])
}
