import Foundation

/// Whether the target's own sources declare a type, so that the generator
/// uses it instead of writing a placeholder.
enum SourceScan {
    static func declares(_ name: String, in files: [URL]) -> Bool {
        let introducers = ["class", "struct", "enum", "protocol", "typealias", "actor"]
        return files.contains { file in
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { return false }
            let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
            return zip(words, words.dropFirst()).contains { introducers.contains(String($0)) && $1 == name }
        }
    }
}
