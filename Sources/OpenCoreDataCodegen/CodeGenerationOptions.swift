/// Choices the code generator leaves to its caller.
public struct CodeGenerationOptions: Equatable, Sendable {
    /// Which entities get code.
    public enum Scope: Equatable, Sendable {
        /// What the model's "Codegen" setting asks for: class and properties
        /// files for "Class Definition", a properties file for "Category/Extension",
        /// nothing for "Manual/None".
        case modelSettings
        /// Class and properties files for every entity, whatever its setting.
        case allEntities
    }

    /// How to-many relationships are typed.
    public enum ToManyStyle: Equatable, Sendable {
        /// `NSSet?` and `NSOrderedSet?`, as Xcode generates them.
        case foundation
        /// `Set<Destination>` and `[Destination]`.
        case swift
    }

    /// Which entities get code; the model's settings unless changed.
    public var scope: Scope
    /// How to-many relationships are typed; Xcode's Foundation types unless changed.
    public var toManyStyle: ToManyStyle
    /// Type names the generated code may use without a placeholder because
    /// the user's module defines them (custom classes of transformable attributes).
    public var definedTypeNames: Set<String>

    /// Options; the defaults generate what Xcode would.
    public init(scope: Scope = .modelSettings, toManyStyle: ToManyStyle = .foundation, definedTypeNames: Set<String> = []) {
        self.scope = scope
        self.toManyStyle = toManyStyle
        self.definedTypeNames = definedTypeNames
    }
}
