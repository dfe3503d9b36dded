import OpenCoreData

/// `<Class>+CoreDataClass.swift`: the class of an entity, empty as in Xcode's
/// code. Xcode's `@objc(Photo)` is left out: without the Objective-C runtime
/// the class is found through registration (see `SupportFileTemplates.registration`).
enum ClassFileTemplate {
    static func file(for entity: NSEntityDescription, modelName: String) -> GeneratedFile {
        let className = EntityClassNames.className(of: entity)
        let name = "\(className)+CoreDataClass.swift"
        let contents = FileHeader.text(fileName: name, modelName: modelName) + """
            public class \(className): \(EntityClassNames.superclassName(of: entity)) {

            }

            """
        return GeneratedFile(name: name, contents: contents)
    }
}
