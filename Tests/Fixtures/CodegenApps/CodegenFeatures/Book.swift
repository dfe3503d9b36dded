import OpenCoreData

// Book's codegen is "Category/Extension": the class is ours, its properties are generated.
public class Book: Item {}

// A custom class the model names: declared here, so the plugin writes no placeholder for it
// (Mood, also named by the model, gets one).
public struct Tint: Sendable, Equatable {
    public var red: Double
}
