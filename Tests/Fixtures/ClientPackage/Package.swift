// swift-tools-version:6.0
import Foundation
import PackageDescription

// The OpenCoreData checkout this fixture lives in. SwiftPM names a path
// dependency after its folder, which differs between clones and worktrees.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let openCoreData = root.lastPathComponent

// Code written as applications write it, built against OpenCoreData: the
// codegen plugin's apps, and Gallery, Core Data code in Apple's style
// (AppleOriginals/ holds it as written for Apple; the ported files differ by
// the steps of docs/Porting.md only, which ClientPackageTests checks).
let package = Package(
    name: "ClientPackage",
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
        // Xcode's "Manual/None" classes, a hand-written class and the Xcode template's
        // PersistenceController, in Swift 5 mode as most applications still are.
        .target(
            name: "Gallery",
            dependencies: [.product(name: "OpenCoreData", package: openCoreData)],
            resources: [.copy("Gallery.xcdatamodeld")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "GalleryTests",
            dependencies: ["Gallery", .product(name: "OpenCoreData", package: openCoreData)],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
