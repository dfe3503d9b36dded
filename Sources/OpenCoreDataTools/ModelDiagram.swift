/// Entity-relationship diagrams of a model, since Linux has no Xcode graph
/// editor: Graphviz DOT and Mermaid here, SVG drawn by the tool itself in
/// ModelDiagramSVG.swift. Each relationship pair is drawn once,
/// labelled with both names, cardinalities and delete rules.
public enum ModelDiagram {
    /// A Graphviz `digraph`: one record node per entity (its attributes), a
    /// dashed arrow per inheritance, an edge per relationship (pair).
    public static func dot(_ model: NSManagedObjectModel) -> String {
        var lines = ["digraph Model {", "  node [shape=record, fontname=\"Helvetica\"];"]
        for entity in ModelSummary.sortedEntities(model) {
            let attributes = ModelSummary.ownAttributes(entity)
                .map { "\(escape($0.name)): \(escape($0.attributeType.modelFileName ?? "Undefined"))\($0.isOptional ? "?" : "")" }
            let label = ([escape(entity.name ?? "") + (entity.isAbstract ? " (abstract)" : "")] + [attributes.joined(separator: "\\l") + (attributes.isEmpty ? "" : "\\l")])
                .joined(separator: "|")
            lines.append("  \(quote(entity.name)) [label=\"{\(label)}\"];")
            if let parent = entity.superentity {
                lines.append("  \(quote(entity.name)) -> \(quote(parent.name)) [style=dashed, arrowhead=empty];")
            }
        }
        for (relationship, inverse) in relationshipPairs(model) {
            let from = relationship.entity?.name, to = relationship.destinationEntity?.name
            var attributes = ["label=\"\(escape(side(relationship)))\""]
            if let inverse {
                attributes.append("taillabel=\"\(escape(side(inverse)))\"")
                attributes.append("dir=both")
                attributes.append("arrowtail=\(inverse.isToMany ? "crow" : "tee")")
            }
            attributes.append("arrowhead=\(relationship.isToMany ? "crow" : "tee")")
            lines.append("  \(quote(from)) -> \(quote(to)) [\(attributes.joined(separator: ", "))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// A Mermaid `erDiagram`: entities with their attributes, one line per
    /// relationship pair with crow's-foot cardinalities.
    public static func mermaid(_ model: NSManagedObjectModel) -> String {
        var lines = ["erDiagram"]
        for entity in ModelSummary.sortedEntities(model) {
            lines.append("    \(identifier(entity.name)) {")
            for attribute in ModelSummary.ownAttributes(entity) {
                lines.append("        \(identifier(attribute.attributeType.modelFileName ?? "Undefined")) \(identifier(attribute.name))")
            }
            lines.append("    }")
        }
        for (relationship, inverse) in relationshipPairs(model) {
            let left = inverse.map { $0.isToMany ? "}o" : ($0.isOptional ? "|o" : "||") } ?? "||"
            let right = relationship.isToMany ? "o{" : (relationship.isOptional ? "o|" : "||")
            let label = [side(relationship)] + (inverse.map { [side($0)] } ?? [])
            lines.append("    \(identifier(relationship.entity?.name)) \(left)--\(right) \(identifier(relationship.destinationEntity?.name)) : \"\(label.joined(separator: " / ").replacingOccurrences(of: "\"", with: "'"))\"")
        }
        for entity in ModelSummary.sortedEntities(model) {
            if let parent = entity.superentity {
                lines.append("    \(identifier(parent.name)) ||--|| \(identifier(entity.name)) : \"inherits\"")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Every relationship with its inverse, each pair once (the side whose
    /// entity and name sort first), then one-way relationships.
    static func relationshipPairs(_ model: NSManagedObjectModel) -> [(NSRelationshipDescription, NSRelationshipDescription?)] {
        var pairs: [(NSRelationshipDescription, NSRelationshipDescription?)] = []
        var drawn = Set<ObjectIdentifier>()
        for entity in ModelSummary.sortedEntities(model) {
            for relationship in ModelSummary.ownRelationships(entity) where !drawn.contains(ObjectIdentifier(relationship)) {
                drawn.insert(ObjectIdentifier(relationship))
                let inverse = relationship.inverseRelationship
                if let inverse { drawn.insert(ObjectIdentifier(inverse)) }
                pairs.append((relationship, inverse))
            }
        }
        return pairs
    }

    static func side(_ relationship: NSRelationshipDescription) -> String {
        let count = relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        return "\(relationship.name) (\(count), \(relationship.deleteRule.modelFileName))"
    }

    private static func quote(_ name: String?) -> String { "\"\(escape(name ?? ""))\"" }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\\"{}|<>".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Mermaid identifiers allow letters, digits, `_` and `-`.
    private static func identifier(_ name: String?) -> String {
        String((name ?? "").map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" })
    }
}
