import OpenCoreData
import GRDB

/// Errors as one short line for people: a Foundation error's own message
/// rather than its description (which prints every userInfo entry, the
/// store's whole metadata among them), and a damaged file named as such
/// whichever layer noticed it.
public enum ErrorText {
    /// Longer messages are cut here: a line on a terminal, not a report.
    static let maximumLength = 400

    /// The message of `error` in one line of at most ``maximumLength`` characters.
    public static func line(_ error: Error) -> String {
        let text: String
        switch error {
        case let error as StoreFileError: text = error.description
        case let error as DatabaseError: text = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        case let error as CustomStringConvertible where !(type(of: error) is NSError.Type):
            text = error.description
        default:
            let error = error as NSError
            text = error.userInfo[NSLocalizedDescriptionKey] as? String
                ?? error.userInfo[NSLocalizedFailureReasonErrorKey] as? String
                ?? "\(error.domain) error \(error.code)"
        }
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return oneLine.count > maximumLength ? oneLine.prefix(maximumLength - 1) + "…" : oneLine
    }

    /// Whether `error`, or an error under it, is SQLite saying the file is
    /// damaged (SQLITE_CORRUPT, 11).
    static func isCorruption(_ error: Error) -> Bool {
        if let error = error as? StoreFileError { return error.isDamage }
        if let error = error as? DatabaseError { return error.resultCode.primaryResultCode == .SQLITE_CORRUPT }
        let error = error as NSError
        if error.domain == "GRDB.DatabaseError", error.code & 0xff == 11 { return true }
        if error.domain == NSCocoaErrorDomain, error.userInfo[NSSQLiteErrorDomain] as? Int == 11 { return true }
        return (error.userInfo[NSUnderlyingErrorKey] as? Error).map(isCorruption) ?? false
    }

    /// The error for a damaged store file: a Core Data store when its first
    /// pages still name Core Data's bookkeeping tables.
    static func damaged(_ store: URL) -> StoreFileError {
        let head = (try? FileHandle(forReadingFrom: store)).flatMap { try? $0.read(upToCount: 1 << 16) } ?? Data()
        let coreData = ["Z_PRIMARYKEY", "Z_METADATA"].contains { head.range(of: Data($0.utf8)) != nil }
        return StoreFileError("damaged \(coreData ? "Core Data" : "SQLite") store: \(store.path) "
                                  + "(database disk image is malformed); recover a copy with `sqlite3 FILE .recover`",
                              isDamage: true)
    }

    /// The name among `candidates` closest to `name` (case first, then a few
    /// typing mistakes), for "did you mean"; nil when none is close.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        if let sameLetters = candidates.first(where: { $0.lowercased() == name.lowercased() }) { return sameLetters }
        let limit = Swift.max(2, name.count / 3), lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = distance(candidate.lowercased(), lowered)
            if distance <= limit, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// " (did you mean 'x'?)", or nothing when no candidate is close.
    static func suggestion(for name: String, among candidates: [String]) -> String {
        closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                let substitution: Int = previous[j] + (x == y ? 0 : 1)
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, substitution))
            }
            previous = current
        }
        return previous[b.count]
    }
}
