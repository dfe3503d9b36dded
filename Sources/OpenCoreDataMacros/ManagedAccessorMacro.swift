import SwiftSyntax
import SwiftSyntaxMacros

/// `@ManagedAccessor func addToPhotos(_ value: Photo)`: the body of one of the relationship functions Xcode
/// declares with `@NSManaged` in `+CoreDataProperties.swift` ("Generated accessors for photos"): `addTo…`,
/// `removeFrom…`, `insertInto…` and `replace…`, for one object, a set, or (ordered) indexes. The body changes the
/// relationship through `mutableSetValue(forKey:)` / `mutableOrderedSetValue(forKey:)`, so inverses are maintained.
public struct ManagedAccessorMacro: BodyMacro {
    private static let kinds = ["addTo", "removeFrom", "insertInto", "replace"]

    public static func expansion(of node: AttributeSyntax,
                                 providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
                                 in context: some MacroExpansionContext) throws -> [CodeBlockItemSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self) else {
            throw MacroExpansionErrorMessage(
                "@ManagedAccessor applies to a relationship function such as addToPhotos(_:)")
        }
        let name = function.name.text
        guard let kind = kinds.first(where: { name.hasPrefix($0) && name.count > $0.count }) else {
            throw MacroExpansionErrorMessage(
                "@ManagedAccessor knows addTo…, removeFrom…, insertInto… and replace…; "
                + "'\(name)' is none of them")
        }
        let relationship = String(name.dropFirst(kind.count))
        let parameters = Array(function.signature.parameterClause.parameters)
        let names = try parameters.map { parameter -> String in
            let local = parameter.secondName ?? parameter.firstName
            guard local.tokenKind != .wildcard else {
                throw MacroExpansionErrorMessage("@ManagedAccessor needs named parameters")
            }
            return local.text
        }
        let labels = parameters.map { $0.firstName.text }
        let call: String
        switch (kind, names.count) {
        case ("addTo", 1): call = "add(\(names[0]), to: \"\(relationship)\", of: self)"
        case ("removeFrom", 1) where labels[0] == "at":
            call = "remove(at: \(names[0]), from: \"\(relationship)\", of: self)"
        case ("removeFrom", 1): call = "remove(\(names[0]), from: \"\(relationship)\", of: self)"
        case ("insertInto", 2): call = "insert(\(names[0]), at: \(names[1]), into: \"\(relationship)\", of: self)"
        case ("replace", 2): call = "replace(at: \(names[0]), with: \(names[1]), in: \"\(relationship)\", of: self)"
        default:
            throw MacroExpansionErrorMessage("'\(name)' has \(names.count) parameter(s); Xcode's \(kind)… accessors "
                + "have \(kind == "insertInto" || kind == "replace" ? 2 : 1)")
        }
        return ["ManagedRelationshipAccessors.\(raw: call)"]
    }
}
