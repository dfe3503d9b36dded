import Foundation

/// What the plugin needs to know of a model folder without parsing it.
enum ModelFolder {
    /// Every `contents` file of the model (each version of a `.xcdatamodeld`)
    /// and the `.xccurrentversion` file: the build command's inputs.
    static func contentsFiles(in model: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: model, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["contents", ".xccurrentversion"].contains($0.lastPathComponent) }
    }

    /// The `customClassName` values the model's files name.
    static func customClassNames(in model: URL) throws -> Set<String> {
        var names: Set<String> = []
        for file in try contentsFiles(in: model) where file.lastPathComponent == "contents" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for part in text.components(separatedBy: "customClassName=\"").dropFirst() {
                guard let end = part.firstIndex(of: "\"") else { continue }
                let spelling = part[..<end]
                names.formUnion(spelling.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            }
        }
        return names
    }
}
