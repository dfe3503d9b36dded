/// Reads a model Core Data archived with NSKeyedArchiver, as a store keeps
/// the model that wrote it in `Z_MODELCACHE` (inflated first).
///
/// The archive's object graph is walked by hand (Foundation on Linux has no
/// Core Data classes to unarchive into) for what a store needs to be read:
/// entities with their hierarchy, renaming identifiers and uniqueness
/// constraints; attributes with type, optionality, transience, value
/// transformer; relationships with destination, inverse, counts, order and
/// delete rule; configurations and version identifiers. Not rebuilt: fetch
/// request templates, fetched properties, derivation expressions (derived
/// attributes come back as plain attributes), validation predicates,
/// indexes, userInfo and default values. The keys are those every corpus
/// store's cache uses (36 stores, framework versions 637 to 1523).
enum ModelArchiveReader {
    /// The model in `plist`, a keyed archive (binary property list) of an
    /// `NSManagedObjectModel`. Throws ``ModelFileError`` for anything else.
    /// Linear in the archive's size.
    static func model(fromKeyedArchive plist: Data) throws -> NSManagedObjectModel {
        var archive = try Archive(plist)
        return try archive.model()
    }

    private struct Archive {
        let objects: [Any]
        let root: Int
        var entities: [Int: NSEntityDescription] = [:]

        init(_ data: Data) throws {
            let decoded = try? UntrustedPropertyList.propertyList(from: data)
            guard let plist = decoded as? [String: Any], plist["$archiver"] as? String == "NSKeyedArchiver",
                  let objects = plist["$objects"] as? [Any],
                  let root = (plist["$top"] as? [String: Any])?["root"].flatMap(Self.uid) else {
                throw ModelArchiveReader.failure("not a keyed archive")
            }
            (self.objects, self.root) = (objects, root)
        }

        /// The index an archive reference (`CF$UID`) points at. Foundation on
        /// Linux decodes references as an internal class whose one stored
        /// property is the index; there is no public accessor.
        static func uid(_ value: Any) -> Int? {
            if let dictionary = value as? [String: Any], let index = dictionary["CF$UID"] as? Int { return index }
            guard String(describing: type(of: value)).contains("KeyedArchiverUID") else { return nil }
            for child in Mirror(reflecting: value).children where child.label == "value" {
                if let index = child.value as? UInt32 { return Int(index) }
            }
            return nil
        }

        /// The object `value` refers to (or `value` itself when it is no reference); nil for `$null`.
        func resolve(_ value: Any?) -> Any? {
            guard let value else { return nil }
            guard let index = Self.uid(value) else { return value }
            guard objects.indices.contains(index), objects[index] as? String != "$null" else { return nil }
            return objects[index]
        }

        func object(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

        func className(_ object: [String: Any]) -> String {
            (self.object(object["$class"])?["$classname"] as? String) ?? ""
        }

        func string(_ value: Any?) -> String? {
            let resolved = resolve(value)
            return resolved as? String ?? object(resolved)?["NS.string"] as? String
        }

        func int(_ value: Any?) -> Int { (resolve(value) as? Int) ?? ((resolve(value) as? Bool) == true ? 1 : 0) }
        func bool(_ value: Any?) -> Bool { int(value) != 0 }

        /// The members of an archived array or set, unresolved.
        func members(_ value: Any?) -> [Any] { object(value)?["NS.objects"] as? [Any] ?? [] }

        /// The entries of an archived dictionary: NSDictionary's keys and
        /// objects, or NSKnownKeysDictionary1's values with its mapping's keys.
        func entries(_ value: Any?) -> [(key: String, value: Any)] {
            guard let dictionary = object(value) else { return [] }
            if let keys = dictionary["NS.keys"] as? [Any], let values = dictionary["NS.objects"] as? [Any] {
                return zip(keys, values).compactMap { key, value in string(key).map { ($0, value) } }
            }
            let keys = members(object(dictionary["searchMapping"])?["keys"]).compactMap { string($0) }
            return Array(zip(keys, members(dictionary["values"])))
        }

        mutating func model() throws -> NSManagedObjectModel {
            guard objects.indices.contains(root), let model = object(objects[root]),
                  className(model) == "NSManagedObjectModel" else {
                throw ModelArchiveReader.failure("the archive's root is not a managed object model")
            }
            var byName: [String: NSEntityDescription] = [:], archived: [(NSEntityDescription, [String: Any])] = []
            for (name, value) in entries(model["NSEntities"]) {
                guard let entity = object(value) else { continue }
                let description = NSEntityDescription(name: string(entity["NSEntityName"]) ?? name)
                description.isAbstract = bool(entity["NSIsAbstract"])
                description.renamingIdentifier = string(entity["NSRenamingIdentifier"])
                description.versionHashModifier = string(entity["NSVersionHashModifier"])
                description.uniquenessConstraints = members(entity["NSUniqueTuples"]).map { tuple in
                    members(tuple).compactMap { string($0) }
                }
                byName[description.name ?? name] = description
                archived.append((description, entity))
            }
            // An entity's archived properties include the inherited ones; each is kept on the
            // entity that declares it, the first ancestor-free one up the chain.
            let parents = Dictionary(archived.compactMap { description, entity in
                object(entity["NSSuperentity"]).flatMap { string($0["NSEntityName"]) }
                    .map { (description.name ?? "", $0) }
            }, uniquingKeysWith: { a, _ in a })
            let declared = Dictionary(archived.map { description, entity in
                (description.name ?? "", Set(entries(entity["NSProperties"]).map(\.key)))
            }, uniquingKeysWith: { a, _ in a })
            for (description, entity) in archived {
                var inherited = Set<String>(), ancestor = parents[description.name ?? ""], depth = 0
                while let name = ancestor {
                    // A hierarchy that loops would make every later walk up the chain endless.
                    guard name != description.name, depth < archived.count else {
                        throw ModelArchiveReader.failure("the superentities of \(name) loop")
                    }
                    inherited.formUnion(declared[name] ?? [])
                    (ancestor, depth) = (parents[name], depth + 1)
                }
                if let parent = parents[description.name ?? ""], let superentity = byName[parent] {
                    superentity.subentities.append(description)
                }
                let properties = entries(entity["NSProperties"]).filter { !inherited.contains($0.key) }
                    .compactMap { property($0.value, byName) }
                description.properties = properties.sorted { $0.name.lowercased() < $1.name.lowercased() }
            }
            try linkInverses(archived, byName)
            let result = NSManagedObjectModel()
            result.entities = archived.map(\.0).sorted { ($0.name ?? "").lowercased() < ($1.name ?? "").lowercased() }
            for (name, members) in entries(model["NSConfigurations"]) {
                let names = self.members(members).compactMap { object($0).flatMap { string($0["NSEntityName"]) } }
                result.setEntities(names.compactMap { byName[$0] }, forConfigurationName: name)
            }
            result.versionIdentifiers = Set(members(model["NSVersionIdentifiers"]).compactMap { string($0) })
            return result
        }

        /// An attribute or relationship; nil for what the store does not hold (fetched properties).
        func property(_ value: Any, _ entities: [String: NSEntityDescription]) -> NSPropertyDescription? {
            guard let property = object(value), let name = string(property["NSPropertyName"]) else { return nil }
            let result: NSPropertyDescription
            switch className(property) {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                let type = UInt(exactly: int(property["NSAttributeType"])).flatMap(NSAttributeType.init(rawValue:))
                    ?? .undefinedAttributeType
                let attribute = NSAttributeDescription(name: name, type: type)
                attribute.valueTransformerName = string(property["NSValueTransformerName"])
                // Bit 16 of NSFlagsKey: "Preserve After Deletion" in every corpus model that sets it.
                attribute.preservesValueInHistoryOnDeletion = int(property["NSFlagsKey"]) & 16 != 0
                result = attribute
            case "NSRelationshipDescription":
                let destination = string(property["_NSDestinationEntityName"]).flatMap { entities[$0] }
                let relationship = NSRelationshipDescription(name: name, destination: destination)
                relationship.minCount = int(property["NSMinCount"])
                // Models built in code archive an unbounded to-many as -1 (CoreDataPlus SampleModel2).
                relationship.maxCount = max(0, int(property["NSMaxCount"]))
                relationship.isOrdered = bool(property["NSIsOrdered"])
                let rule = UInt(exactly: int(property["NSDeleteRule"])).flatMap(NSDeleteRule.init(rawValue:))
                relationship.deleteRule = rule ?? .nullifyDeleteRule
                relationship.unresolvedInverse = string(property["_NSInverseRelationshipName"]).map {
                    (destination?.name, $0)
                }
                result = relationship
            default:
                return nil
            }
            result.isOptional = bool(property["NSIsOptional"])
            result.isTransient = bool(property["NSIsTransient"])
            result.isIndexed = bool(property["NSIsIndexed"])
            result.renamingIdentifier = string(property["NSRenamingIdentifier"])
            result.versionHashModifier = string(property["NSVersionHashModifier"])
            return result
        }

        func linkInverses(_ archived: [(NSEntityDescription, [String: Any])],
                          _ byName: [String: NSEntityDescription]) throws {
            for (entity, _) in archived {
                for case let relationship as NSRelationshipDescription in entity.ownProperties {
                    guard let (destination, name) = relationship.unresolvedInverse else { continue }
                    relationship.unresolvedInverse = nil
                    relationship.inverseRelationship = destination.flatMap { byName[$0]?.relationshipsByName[name] }
                }
            }
        }
    }

    static func failure(_ reason: String) -> ModelFileError {
        ModelFileError(.unreadable, "The store's cached model can't be read: \(reason).", file: nil)
    }
}
