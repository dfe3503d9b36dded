// swift-tools-version:6.0
import Foundation
import PackageDescription

// The OpenCoreData checkout this fixture lives in. SwiftPM names a path
// dependency after its folder, which differs between clones and worktrees.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let openCoreData = root.lastPathComponent

let package = Package(
    name: "CodegenPlugin",
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "FrozenTimeApp",
            dependencies: [.product(name: "OpenCoreData", package: openCoreData)],
            // Copied so that the app can load the model at run time; the plugin
            // sees it either way.
            resources: [.copy("FrozenTime.xcdatamodeld")],
            plugins: [.plugin(name: "OpenCoreDataCodegenPlugin", package: openCoreData)]),
        // Ordered relationships, inheritance, a category entity and custom classes.
        .executableTarget(
            name: "CodegenFeatures",
            dependencies: [.product(name: "OpenCoreData", package: openCoreData)],
            resources: [.copy("Shelf.xcdatamodeld")],
            plugins: [.plugin(name: "OpenCoreDataCodegenPlugin", package: openCoreData)]),
    ],
    swiftLanguageModes: [.v6]
)
