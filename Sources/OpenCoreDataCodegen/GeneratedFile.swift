/// A Swift source file the code generator writes.
public struct GeneratedFile: Equatable, Sendable {
    /// The file name, such as `Photo+CoreDataClass.swift`.
    public var name: String
    /// The file's Swift source.
    public var contents: String

    /// A file named `name` holding `contents`.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}
