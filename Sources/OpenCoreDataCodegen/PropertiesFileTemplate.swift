import OpenCoreData

/// `<Class>+CoreDataProperties.swift`: the entity's fetch request, a typed
/// property per attribute and relationship, the to-many accessors and the
/// `Identifiable` conformance, laid out as Xcode's.
///
/// Xcode declares the properties `@NSManaged`; on Linux they are computed
/// properties over `value(forKey:)` and `setValue(_:forKey:)`, so faulting,
/// change tracking, validation and inverse maintenance apply to them exactly
/// as to key-value access. (A property wrapper can't be used: its storage
/// would be a stored property, which extensions can't declare.)
struct PropertiesFileTemplate {
    let entity: NSEntityDescription
    let context: GenerationContext

    func file() -> GeneratedFile {
        let className = EntityClassNames.className(of: entity)
        let name = "\(className)+CoreDataProperties.swift"
        var text = FileHeader.text(fileName: name, modelName: context.modelName)
        text += "extension \(className) {\n\n"
        text += fetchRequest(className)
        for attribute in ownProperties(NSAttributeDescription.self) {
            text += property(attribute.name, type: context.swiftType(of: attribute))
        }
        for relationship in ownProperties(NSRelationshipDescription.self) {
            text += relationshipProperty(relationship)
        }
        text += "}\n"
        for relationship in ownProperties(NSRelationshipDescription.self) where relationship.isToMany {
            text += "\n" + RelationshipAccessorsTemplate(relationship: relationship, className: className,
                                                         destinationName: context.className(of: relationship.destinationEntity)).text()
        }
        if entity.superentity == nil {
            text += "\nextension \(className) : Identifiable {\n\n}\n"
        }
        return GeneratedFile(name: name, contents: text)
    }

    /// The properties `entity` declares itself; inherited ones are in the superclass's extension.
    private func ownProperties<Kind: NSPropertyDescription>(_ kind: Kind.Type) -> [Kind] {
        entity.properties.compactMap { $0 as? Kind }.filter { $0.entity === entity }
    }

    private func fetchRequest(_ className: String) -> String {
        // `@nonobjc` is kept as Xcode writes it: Swift accepts it without Objective-C interop.
        """
            @nonobjc public class func fetchRequest() -> NSFetchRequest<\(className)> {
                \(context.registrationFunction)()
                return NSFetchRequest<\(className)>(entityName: "\(entity.name ?? className)")
            }


        """
    }

    private func property(_ key: String, type: String) -> String {
        """
            public var \(SwiftIdentifier.escaped(key)): \(type) {
                get { self.value(forKey: "\(key)", as: \(type).self) }
                set { self.setValue(newValue, forKey: "\(key)") }
            }


        """
    }

    private func relationshipProperty(_ relationship: NSRelationshipDescription) -> String {
        let key = relationship.name
        let destination = context.className(of: relationship.destinationEntity)
        guard relationship.isToMany else { return property(key, type: destination + "?") }
        switch (context.options.toManyStyle, relationship.isOrdered) {
        case (.foundation, false): return property(key, type: "NSSet?")
        case (.foundation, true): return property(key, type: "NSOrderedSet?")
        case (.swift, false):
            return """
                    public var \(SwiftIdentifier.escaped(key)): Set<\(destination)> {
                        get { Set(self.value(forKey: "\(key)", as: NSSet.self).allObjects.map { $0 as! \(destination) }) }
                        set { self.setValue(NSSet(array: Array(newValue)), forKey: "\(key)") }
                    }


                """
        case (.swift, true):
            return """
                    public var \(SwiftIdentifier.escaped(key)): [\(destination)] {
                        get { self.value(forKey: "\(key)", as: NSOrderedSet.self).array.map { $0 as! \(destination) } }
                        set { self.setValue(NSOrderedSet(array: newValue), forKey: "\(key)") }
                    }


                """
        }
    }
}
