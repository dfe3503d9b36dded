/// Writes a model as the `contents` XML of an `.xcdatamodel`, in Xcode's format.
///
/// Follows what Xcode writes (shared/corpus/FORMAT.md §2): the fixed XML
/// declaration, four-space indentation, self-closing elements, entities and
/// properties sorted case-insensitively by name, attributes in Xcode 14's
/// order, booleans as `YES` only when set, no trailing newline. Reading the
/// output gives a model equal to the one written.
enum ModelXMLWriter {
    /// The model as Xcode model-file XML.
    static func xml(for model: NSManagedObjectModel) -> String {
        var out = XMLOutput()
        out.line("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>", depth: 0)
        out.open("model", modelAttributes(model), depth: 0)
        for entity in sortedByName(model.entities, \.name) { write(entity, &out) }
        for (name, request) in model.fetchRequestDescriptionsByName.sorted(by: { $0.key < $1.key }) {
            out.empty("fetchRequest", [("name", name)] + requestAttributes(request), depth: 1)
        }
        for name in model.configurations {
            let members = model.entities(forConfigurationName: name) ?? []
            let attributes = [("name", name)] + flag("usedWithCloudKit", model.configurationsUsedWithCloudKit.contains(name))
            if members.isEmpty {
                out.empty("configuration", attributes, depth: 1)
            } else {
                out.open("configuration", attributes, depth: 1)
                for member in members { out.empty("memberEntity", [("name", member.name ?? "")], depth: 2) }
                out.close("configuration", depth: 1)
            }
        }
        for (name, elements) in compositeTypes(of: model) {
            out.open("composite", [("name", name)], depth: 1)
            for element in elements { write(attribute: element, &out, depth: 2) }
            out.close("composite", depth: 1)
        }
        out.close("model", depth: 0, last: true)
        return out.text
    }

    /// Writes `model` to `url`: a `.xcdatamodel` folder gets a `contents`
    /// file (created with the folder if needed); any other path is the XML file itself.
    static func write(_ model: NSManagedObjectModel, to url: URL) throws {
        var target = url
        if url.pathExtension == "xcdatamodel" {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            target = url.appendingPathComponent("contents")
        }
        try Data(xml(for: model).utf8).write(to: target, options: .atomic)
    }

    // MARK: Elements

    private static func write(_ entity: NSEntityDescription, _ out: inout XMLOutput) {
        var attributes: [(String, String)] = [("name", entity.name ?? "")]
        if let className = entity.explicitClassName { attributes.append(("representedClassName", className)) }
        attributes += flag("isAbstract", entity.isAbstract)
        if let parent = entity.superentity?.name { attributes.append(("parentEntity", parent)) }
        if let id = entity.renamingIdentifier { attributes.append(("elementID", id)) }
        if let modifier = entity.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        attributes.append(("syncable", "YES"))
        if let codegen = entity.codeGenerationType { attributes.append(("codeGenerationType", codegen)) }
        out.open("entity", attributes, depth: 1)
        let own = entity.ownProperties
        for attribute in sortedByName(own.compactMap { $0 as? NSAttributeDescription }, \.name) {
            write(attribute: attribute, &out, depth: 2)
        }
        for relationship in sortedByName(own.compactMap { $0 as? NSRelationshipDescription }, \.name) {
            write(relationship: relationship, &out)
        }
        for fetched in sortedByName(own.compactMap { $0 as? NSFetchedPropertyDescription }, \.name) {
            out.open("fetchedProperty", [("name", fetched.name)] + flag("optional", fetched.isOptional), depth: 2)
            if let request = fetched.fetchRequestDescription {
                out.empty("fetchRequest", [("name", "fetchedPropertyFetchRequest")] + requestAttributes(request), depth: 3)
            }
            writeUserInfo(fetched.userInfo, &out, depth: 3)
            out.close("fetchedProperty", depth: 2)
        }
        for index in entity.indexes {
            out.open("fetchIndex", [("name", index.name)], depth: 2)
            for element in index.elements {
                out.empty("fetchIndexElement", [
                    ("property", element.propertyName ?? ""),
                    ("type", element.collationType == .rTree ? "RTree" : "Binary"),
                    ("order", element.isAscending ? "ascending" : "descending"),
                ], depth: 3)
            }
            out.close("fetchIndex", depth: 2)
        }
        writeGroups("compoundIndexes", "compoundIndex", "index", entity.compoundIndexNames, &out)
        writeGroups("uniquenessConstraints", "uniquenessConstraint", "constraint", entity.uniquenessConstraintNames, &out)
        writeUserInfo(entity.userInfo, &out, depth: 2)
        out.close("entity", depth: 1)
    }

    private static func write(attribute: NSAttributeDescription, _ out: inout XMLOutput, depth: Int) {
        let rules = attribute.validationRules
        var a: [(String, String)] = [("name", attribute.name)]
        a += flag("optional", attribute.isOptional)
        a += flag("transient", attribute.isTransient)
        if let typeName = attribute.attributeType.modelFileName { a.append(("attributeType", typeName)) }
        if let interval = rules.minDateTimeInterval { a.append(("minDateTimeInterval", number(interval))) }
        if let min = rules.minValueString { a.append(("minValueString", min)) }
        if let interval = rules.maxDateTimeInterval { a.append(("maxDateTimeInterval", number(interval))) }
        if attribute.isDerived { a.append(("derived", "YES")) }
        if let date = attribute.defaultValue as? Date {
            a.append(("defaultDateTimeInterval", number(date.timeIntervalSinceReferenceDate)))
        } else if let value = attribute.defaultValue, let text = ModelValueText.text(value, of: attribute.attributeType) {
            a.append(("defaultValueString", text))
        }
        if let transformer = attribute.valueTransformerName { a.append(("valueTransformerName", transformer)) }
        if let derived = attribute as? NSDerivedAttributeDescription, let expression = derived.derivationExpressionFormat {
            a.append(("derivationExpression", expression))
        }
        if let scalar = attribute.usesScalarValueType { a.append(("usesScalarValueType", scalar ? "YES" : "NO")) }
        if let className = attribute.explicitValueClassName { a.append(("customClassName", className)) }
        a += flag("spotlightIndexingEnabled", attribute.isIndexedBySpotlight)
        a += flag("storedInTruthFile", attribute.isStoredInExternalRecord)
        a += flag("indexed", attribute.isIndexed)
        if let pattern = rules.regularExpressionString { a.append(("regularExpressionString", pattern)) }
        a += flag("preserveAfterDeletion", attribute.preservesValueInHistoryOnDeletion)
        a += flag("allowsCloudEncryption", attribute.allowsCloudEncryption)
        if let modifier = attribute.versionHashModifier { a.append(("versionHashModifier", modifier)) }
        if let composite = attribute as? NSCompositeAttributeDescription, let typeName = composite.compositeTypeName {
            a.append(("composite", typeName))
        }
        if let max = rules.maxValueString { a.append(("maxValueString", max)) }
        a += flag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        if let id = attribute.renamingIdentifier { a.append(("elementID", id)) }
        writeLeaf("attribute", a, userInfo: attribute.userInfo, &out, depth: depth)
    }

    private static func write(relationship: NSRelationshipDescription, _ out: inout XMLOutput) {
        var a: [(String, String)] = [("name", relationship.name)]
        a += flag("optional", relationship.isOptional)
        a += flag("transient", relationship.isTransient)
        a += flag("toMany", relationship.isToMany)
        if relationship.minCount != 0 { a.append(("minCount", String(relationship.minCount))) }
        if relationship.maxCount != 0 { a.append(("maxCount", String(relationship.maxCount))) }
        a.append(("deletionRule", relationship.deleteRule.modelFileName))
        a += flag("ordered", relationship.isOrdered)
        a.append(("destinationEntity", relationship.destinationEntity?.name ?? ""))
        if let inverse = relationship.inverseRelationship {
            a.append(("inverseName", inverse.name))
            a.append(("inverseEntity", inverse.entity?.name ?? ""))
        }
        a += flag("indexed", relationship.isIndexed)
        if let modifier = relationship.versionHashModifier { a.append(("versionHashModifier", modifier)) }
        if let id = relationship.renamingIdentifier { a.append(("elementID", id)) }
        writeLeaf("relationship", a, userInfo: relationship.userInfo, &out, depth: 2)
    }

    private static func writeLeaf(_ element: String, _ attributes: [(String, String)], userInfo: [AnyHashable: Any]?,
                                  _ out: inout XMLOutput, depth: Int) {
        guard let userInfo, !userInfo.isEmpty else { return out.empty(element, attributes, depth: depth) }
        out.open(element, attributes, depth: depth)
        writeUserInfo(userInfo, &out, depth: depth + 1)
        out.close(element, depth: depth)
    }

    private static func writeUserInfo(_ userInfo: [AnyHashable: Any]?, _ out: inout XMLOutput, depth: Int) {
        guard let userInfo, !userInfo.isEmpty else { return }
        out.open("userInfo", [], depth: depth)
        for (key, value) in userInfo.map({ ("\($0.key)", "\($0.value)") }).sorted(by: { $0.0 < $1.0 }) {
            out.empty("entry", [("key", key), ("value", value)], depth: depth + 1)
        }
        out.close("userInfo", depth: depth)
    }

    private static func writeGroups(_ outer: String, _ middle: String, _ inner: String, _ groups: [[String]],
                                    _ out: inout XMLOutput) {
        guard !groups.isEmpty else { return }
        out.open(outer, [], depth: 2)
        for group in groups {
            out.open(middle, [], depth: 3)
            for value in group { out.empty(inner, [("value", value)], depth: 4) }
            out.close(middle, depth: 3)
        }
        out.close(outer, depth: 2)
    }

    // MARK: Values

    private static let modelAttributeOrder = [
        "name", "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "usedWithCloudKit", "usedWithSwiftData",
    ]

    private static func modelAttributes(_ model: NSManagedObjectModel) -> [(String, String)] {
        var header = model.modelFileAttributes
        header["type"] = header["type"] ?? "com.apple.IDECoreDataModeler.DataModel"
        header["documentVersion"] = header["documentVersion"] ?? "1.0"
        header["minimumToolsVersion"] = header["minimumToolsVersion"] ?? "Automatic"
        header["sourceLanguage"] = header["sourceLanguage"] ?? "Swift"
        let known = modelAttributeOrder.compactMap { key in header.removeValue(forKey: key).map { (key, $0) } }
        let identifier = model.versionIdentifiers.compactMap { $0.base as? String }.sorted().first ?? ""
        return known + [("userDefinedModelVersionIdentifier", identifier)] + header.sorted { $0.key < $1.key }
    }

    private static func requestAttributes(_ request: FetchRequestDescription) -> [(String, String)] {
        var a: [(String, String)] = [("entity", request.entityName)]
        if let predicate = request.predicateFormat { a.append(("predicateString", predicate)) }
        if let limit = request.fetchLimit { a.append(("fetchLimit", String(limit))) }
        if let size = request.fetchBatchSize { a.append(("fetchBatchSize", String(size))) }
        let flags: [(String, Bool?)] = [
            ("includeSubentities", request.includesSubentities), ("includePropertyValues", request.includesPropertyValues),
            ("includesPendingChanges", request.includesPendingChanges), ("returnObjectsAsFaults", request.returnsObjectsAsFaults),
        ]
        for (key, value) in flags { if let value { a.append((key, value ? "YES" : "NO")) } }
        if let type = request.resultType { a.append(("resultType", String(type))) }
        if let distinct = request.returnsDistinctResults { a.append(("returnDistinctResults", distinct ? "YES" : "NO")) }
        return a
    }

    /// The named composite types the model's composite attributes use, by name.
    private static func compositeTypes(of model: NSManagedObjectModel) -> [(String, [NSAttributeDescription])] {
        var found: [String: [NSAttributeDescription]] = [:]
        func collect(_ attributes: [NSAttributeDescription]) {
            for case let composite as NSCompositeAttributeDescription in attributes {
                guard let name = composite.compositeTypeName, found[name] == nil else { continue }
                found[name] = composite.elements
                collect(composite.elements)
            }
        }
        for entity in model.entities { collect(entity.ownProperties.compactMap { $0 as? NSAttributeDescription }) }
        return found.sorted { $0.key < $1.key }
    }

    private static func flag(_ key: String, _ value: Bool) -> [(String, String)] { value ? [(key, "YES")] : [] }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func sortedByName<T>(_ items: [T], _ name: (T) -> String?) -> [T] {
        items.sorted { (name($0) ?? "").caseInsensitiveCompare(name($1) ?? "") == .orderedAscending }
    }
}

/// Indented XML text, the way Xcode lays it out.
private struct XMLOutput {
    var text = ""

    mutating func line(_ content: String, depth: Int) {
        text += String(repeating: "    ", count: depth) + content + "\n"
    }
    mutating func open(_ name: String, _ attributes: [(String, String)], depth: Int) {
        line("<\(name)\(render(attributes))>", depth: depth)
    }
    mutating func empty(_ name: String, _ attributes: [(String, String)], depth: Int) {
        line("<\(name)\(render(attributes))/>", depth: depth)
    }
    mutating func close(_ name: String, depth: Int, last: Bool = false) {
        line("</\(name)>", depth: depth)
        if last { text.removeLast() }
    }

    private func render(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    private func escape(_ value: String) -> String {
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

extension NSManagedObjectModel {
    /// The model as the `contents` XML Xcode writes for an `.xcdatamodel`.
    public var modelFileXML: String { ModelXMLWriter.xml(for: self) }

    /// Writes the model in Xcode's format: to `url/contents` when `url` is an
    /// `.xcdatamodel` folder (created if needed), else to the file `url`.
    public func write(to url: URL) throws { try ModelXMLWriter.write(self, to: url) }
}
