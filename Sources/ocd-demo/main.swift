import OpenCoreData

// The demo walks through the models of the seed documents: it loads each
// Xcode model file from Examples/Models and explains what it declares.

let examples = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Examples/Models")

func describe(_ relationship: NSRelationshipDescription) -> String {
    let cardinality = relationship.isToMany ? (relationship.isOrdered ? "to-many, ordered" : "to-many") : "to-one"
    let inverse = relationship.inverseRelationship.map { "inverse \($0.entity.name ?? "").\($0.name)" } ?? "no inverse"
    let rule: String
    switch relationship.deleteRule {
    case .cascadeDeleteRule: rule = "deleting the owner deletes these too (Cascade)"
    case .nullifyDeleteRule: rule = "deleting the owner clears their link back (Nullify)"
    case .denyDeleteRule: rule = "the owner can't be deleted while any remain (Deny)"
    case .noActionDeleteRule: rule = "deleting the owner leaves them pointing at it (No Action)"
    }
    return "\(relationship.name) → \(relationship.destinationEntity?.name ?? "?") (\(cardinality), \(inverse)); \(rule)"
}

func describe(_ attribute: NSAttributeDescription) -> String {
    var text = "\(attribute.name): \(attribute.attributeType.modelFileName ?? "Undefined")"
    text += attribute.isOptional ? ", optional" : ", required"
    if let value = attribute.defaultValue { text += ", default \(value)" }
    let rules = attribute.validationRules
    if let min = rules.minValueString { text += ", at least \(min)" }
    if let max = rules.maxValueString { text += ", at most \(max)" }
    return text
}

let names = ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).sorted()
guard !names.isEmpty else {
    print("No models found in \(examples.path). Run the demo from the repository's folder, or pass the models folder.")
    exit(1)
}
print("OpenCoreData demo: the seed documents' data models, read from Xcode model files\n")
for name in names {
    let url = examples.appendingPathComponent(name)
    do {
        let model = try NSManagedObjectModel.load(contentsOf: url)
        try model.validate()
        print("== \(name)")
        if url.pathExtension == "xcdatamodeld" {
            let bundle = try ModelVersionBundle(url: url)
            print("   versions: \(bundle.versionNames.joined(separator: ", ")); current: \(bundle.currentVersionName)")
        }
        for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            print("   entity \(entity.name ?? "") (class \(entity.managedObjectClassName ?? ""))")
            for attribute in entity.attributesByName.values.sorted(by: { $0.name < $1.name }) {
                print("     attribute " + describe(attribute))
            }
            for relationship in entity.relationshipsByName.values.sorted(by: { $0.name < $1.name }) {
                print("     relationship " + describe(relationship))
            }
            let hash = entity.versionHash.prefix(6).map { String(format: "%02x", $0) }.joined()
            print("     version hash \(hash)…")
        }
        for (template, request) in model.fetchRequestDescriptionsByName.sorted(by: { $0.key < $1.key }) {
            print("   fetch request template \(template): \(request.entityName) where \(request.predicateFormat ?? "TRUEPREDICATE")")
        }
        print()
    } catch {
        print("== \(name): \(error)\n")
    }
}
