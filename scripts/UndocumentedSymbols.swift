// Lists the public symbols of OpenCoreData's modules that have no `///` doc comment and exits 1
// when there is one, so that "every public symbol is documented" is checked, not asserted.
// It reads the symbol graphs `swift package dump-symbol-graph --skip-synthesized-members
// --skip-inherited-docs` writes (scripts/check-docs.sh runs both): a symbol with a source
// location is one this package declares; members that only inherit a protocol's or superclass's
// documentation count as undocumented, since they say nothing about what ours do or cost.
//
//     swift scripts/UndocumentedSymbols.swift .build/x86_64-unknown-linux-gnu/symbolgraph
import Foundation

/// The modules whose public API is checked: the library, and the code generator and tools
/// that `ocd` and applications' build plugins link.
let modules = ["OpenCoreDataCore", "OpenCoreDataCodegen", "OpenCoreDataTools"]

/// Symbols not held to the rule yet, by path; remove each entry when its comment lands, which
/// this script points out.
let pending: Set<String> = []

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: UndocumentedSymbols.swift SYMBOLGRAPH_DIR\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: CommandLine.arguments[1])
let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    .filter { file in
        let name = file.lastPathComponent
        return name.hasSuffix(".symbols.json")
            && modules.contains { name == "\($0).symbols.json" || name.hasPrefix("\($0)@") }
    }
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("no symbol graphs of \(modules) in \(folder.path)\n".utf8))
    exit(2)
}

var checked = 0
var missing: [String] = []
var documentedPending: [String] = []
for file in files {
    let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? [] {
        guard let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String
        else { continue }
        checked += 1
        let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
        let documented = lines.contains { line in
            !((line["text"] as? String) ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        }
        if documented {
            if pending.contains(path) { documentedPending.append(path) }
            continue
        }
        if pending.contains(path) { continue }
        let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
        let root = FileManager.default.currentDirectoryPath + "/"
        let absolute = URL(string: uri)?.path ?? uri
        let source = absolute.hasPrefix(root) ? String(absolute.dropFirst(root.count)) : absolute
        let kind = ((symbol["kind"] as? [String: Any])?["displayName"] as? String) ?? "symbol"
        missing.append("\(source):\(line): \(kind) \(path) has no doc comment")
    }
}
for path in documentedPending.sorted() {
    print("note: \(path) is documented now; remove it from `pending` in scripts/UndocumentedSymbols.swift")
}
for entry in missing.sorted() { print(entry) }
print("\(checked) public symbols in \(modules.joined(separator: ", ")): \(missing.count) without a doc comment, "
    + "\(pending.count - documentedPending.count) pending")
exit(missing.isEmpty ? 0 : 1)
