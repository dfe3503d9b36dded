import OpenCoreDataTools

// The demo walks through the models of the seed documents: it loads each
// Xcode model file from Examples/Models and explains what it declares.

let examples = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Examples/Models")
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
            print("versions: \(bundle.versionNames.joined(separator: ", ")); current: \(bundle.currentVersionName)")
        }
        print(ModelSummary.text(model) + "\n")
    } catch {
        print("== \(name): \(error)\n")
    }
}
