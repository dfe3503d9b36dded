import Logging
import Synchronization

/// Core Data's debug switches, read as Apple's are: from the launch arguments
/// `-com.apple.CoreData.SQLDebug N` and `-com.apple.CoreData.MigrationDebug N`
/// (Xcode's scheme puts them there; on Linux, `swift run App
/// -com.apple.CoreData.SQLDebug 1`), and, for servers whose command line is not
/// theirs to change, from the environment variables `OPENCOREDATA_SQL_DEBUG`
/// and `OPENCOREDATA_MIGRATION_DEBUG`. A launch argument wins over the
/// environment.
///
/// SQL debug levels follow Apple's:
/// - 1: every SQL statement (`CoreData: sql: SELECT …`) with its time
///   (`CoreData: annotation: sql connection fetch time: 0.0012s`), and each
///   fetch's total time and row count;
/// - 2: also the bound values (`CoreData: details: SQLite bind[0] = 18`) and
///   a fetch count line per fetch;
/// - 3 and more: also every fault fulfilled from the database and every row
///   cache hit.
///
/// A store reads the level and the logger when it is added to its
/// coordinator (the coordinator's row cache when it is made), so that a
/// switched-off log costs one check of a stored value on the paths that run
/// per statement or per fault. Lines go to ``logger`` at level `info`.
public enum CoreDataDebug {
    /// The environment variable read for the SQL debug level when the launch
    /// arguments do not name one.
    public static let sqlDebugEnvironmentVariable = "OPENCOREDATA_SQL_DEBUG"
    /// The environment variable read for the migration debug level when the
    /// launch arguments do not name one.
    public static let migrationDebugEnvironmentVariable = "OPENCOREDATA_MIGRATION_DEBUG"
    /// Apple's launch argument for the SQL debug level.
    public static let sqlDebugArgument = "-com.apple.CoreData.SQLDebug"
    /// Apple's launch argument for the migration debug level.
    public static let migrationDebugArgument = "-com.apple.CoreData.MigrationDebug"
    /// Apple's launch argument for the concurrency checks (`1` switches them on).
    public static let concurrencyDebugArgument = "-com.apple.CoreData.ConcurrencyDebug"
    /// The environment variable read for the concurrency checks when the
    /// launch arguments do not name them.
    public static let concurrencyDebugEnvironmentVariable = "OPENCOREDATA_CONCURRENCY_DEBUG"

    /// Whether a context, and each object's key-value access, stops the
    /// program when used on a thread that is not running the context's work
    /// (outside `perform`/`performAndWait`; a main-queue context also on the
    /// main thread), naming the entity, key and queue: Apple's
    /// `-com.apple.CoreData.ConcurrencyDebug 1`. Contexts made after a change
    /// follow it; off, it costs the load of a context's stored flag per access.
    public static var concurrencyDebug: Bool {
        get { concurrencyChecks.load(ordering: .relaxed) }
        set { concurrencyChecks.store(newValue, ordering: .relaxed) }
    }

    static let concurrencyChecks = Atomic<Bool>(level(
        argument: concurrencyDebugArgument, environmentVariable: concurrencyDebugEnvironmentVariable,
        arguments: ProcessInfo.processInfo.arguments, environment: ProcessInfo.processInfo.environment) > 0)

    private struct State: Sendable {
        var sqlDebugLevel: Int
        var migrationDebugLevel: Int
        var logger: Logger
    }

    private static let state: Locked<State> = {
        let arguments = ProcessInfo.processInfo.arguments, environment = ProcessInfo.processInfo.environment
        return Locked(State(
            sqlDebugLevel: level(argument: sqlDebugArgument, environmentVariable: sqlDebugEnvironmentVariable,
                                 arguments: arguments, environment: environment),
            migrationDebugLevel: level(argument: migrationDebugArgument,
                                       environmentVariable: migrationDebugEnvironmentVariable,
                                       arguments: arguments, environment: environment),
            logger: Logger(label: "com.apple.CoreData", factory: { _ in CoreDataDebugLogHandler() })))
    }()

    /// The SQL debug level; 0 is off. Stores added after a change use the new level.
    public static var sqlDebugLevel: Int {
        get { state.withLock { $0.sqlDebugLevel } }
        set { state.withLock { $0.sqlDebugLevel = newValue } }
    }

    /// The migration debug level; 0 is off. From 1 automatic migration logs
    /// its steps and time, from 3 also each entity mapping.
    public static var migrationDebugLevel: Int {
        get { state.withLock { $0.migrationDebugLevel } }
        set { state.withLock { $0.migrationDebugLevel = newValue } }
    }

    /// Where the debug lines go. By default each line is written to standard
    /// error as it is, as Apple's are to the console; replace it with a logger
    /// of the application's logging system to route them elsewhere.
    /// Stores added after a change use the new logger.
    public static var logger: Logger {
        get { state.withLock { $0.logger } }
        set { state.withLock { $0.logger = newValue } }
    }

    /// The level `argument` (followed by its value) or, failing that,
    /// `environmentVariable` sets: a number, or YES/true for 1 and NO/false
    /// for 0 as user defaults read them; 0 when neither is there.
    static func level(argument: String, environmentVariable: String, arguments: [String],
                      environment: [String: String]) -> Int {
        if let index = arguments.lastIndex(of: argument), index + 1 < arguments.count,
           let level = level(arguments[index + 1]) {
            return level
        }
        return environment[environmentVariable].flatMap(level) ?? 0
    }

    private static func level(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed) { return number }
        switch trimmed.lowercased() {
        case "yes", "true": return 1
        case "no", "false": return 0
        default: return nil
        }
    }
}

/// The default handler of ``CoreDataDebug/logger``: the message alone, one
/// line on standard error, as Core Data's lines read in Xcode's console.
struct CoreDataDebugLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileHandle.standardError.write(Data((event.message.description + "\n").utf8))
    }
}
