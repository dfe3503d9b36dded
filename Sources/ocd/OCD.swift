import ArgumentParser
import OpenCoreDataTools

/// `ocd`: OpenCoreData's command-line tool for Core Data models and stores.
@main
struct OCD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocd",
        abstract: "Inspect Core Data models and stores on any platform.",
        discussion: """
            Examples (in the repository's Examples folder):
            \(examples.map { "  " + $0 }.joined(separator: "\n"))

            Shell completions: ocd --generate-completion-script bash|zsh|fish (e.g. \
            `ocd --generate-completion-script zsh > ~/.zfunc/_ocd`).
            SQL debug log: OPENCOREDATA_SQL_DEBUG=1 ocd query …, or -com.apple.CoreData.SQLDebug 1 as for an app.
            """,
        subcommands: [ModelCommand.self, GenerateCommand.self, InspectCommand.self, QueryCommand.self,
                      MigrateCommand.self])

    /// Commands that run as written in the repository's Examples folder, shown
    /// in `ocd --help` (OCDCommandLineTests runs them). At most 76 columns, so
    /// that the help, wrapped at 80, shows each on one line.
    static let examples = [
        "ocd model Models/FrozenTime.xcdatamodeld",
        "ocd model Models/Company.xcdatamodel --format svg",
        "ocd inspect Stores/FrozenTime.sqlite --model Models/FrozenTime.xcdatamodeld",
        "ocd query Stores/FrozenTime.sqlite --entity Photo --predicate \"rating >= 4\"",
        "ocd query Stores/FrozenTime.sqlite --entity Album --sort -name --format json",
    ]

    /// Core Data's launch arguments (`-com.apple.CoreData.SQLDebug 1`) are the
    /// library's, read from the process arguments: they are taken out before
    /// the command line is parsed, so that they can be given to `ocd` as to an app.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        for name in [CoreDataDebug.sqlDebugArgument, CoreDataDebug.migrationDebugArgument] {
            while let index = arguments.firstIndex(of: name) {
                arguments.removeSubrange(index..<min(index + 2, arguments.count))
            }
        }
        main(arguments)
    }
}
