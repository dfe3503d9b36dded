import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed var name: Type`: a property of a managed object read and written through `value(forKey:as:)` and
/// `setValue(_:forKey:)`, as Core Data's `@NSManaged` properties are. The expansion is two accessors, so the
/// property may be declared in the class or in an extension, and it declares nothing else.
public struct ManagedMacro: AccessorMacro {
    public static func expansion(of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1,
              let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmed else {
            throw MacroExpansionErrorMessage("@Managed applies to one stored property of an NSManagedObject subclass")
        }
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
            throw MacroExpansionErrorMessage("@Managed properties are 'var', as @NSManaged ones are")
        }
        guard let type = binding.typeAnnotation?.type.trimmed else {
            throw MacroExpansionErrorMessage(
                "@Managed needs the property's type, e.g. '@Managed var \(name.text): String?'")
        }
        guard binding.initializer == nil, binding.accessorBlock == nil else {
            throw MacroExpansionErrorMessage(
                "A @Managed property has no initial value or accessors: the store holds it")
        }
        let key = explicitKey(of: node) ?? "\"\(name.text.trimmingBackticks)\""
        return [
            "get { self.value(forKey: \(raw: key), as: (\(type)).self) }",
            "set { self.setValue(newValue, forKey: \(raw: key)) }",
        ]
    }

    /// The key of `@Managed("key")`, as written.
    private static func explicitKey(of node: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments) = node.arguments, let first = arguments.first else { return nil }
        return first.expression.trimmedDescription
    }
}

extension String {
    var trimmingBackticks: String { hasPrefix("`") && hasSuffix("`") ? String(dropFirst().dropLast()) : self }
}
