// swift-tools-version:6.0
import Foundation
import PackageDescription

// The OpenCoreData checkout this fixture lives in. SwiftPM names a path
// dependency after its folder, which differs between clones and worktrees.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let openCoreData = root.lastPathComponent

// Core Data code in Apple's style, built against OpenCoreData as an
// application's package builds it: Gallery (AppleOriginals/ holds it as written
// for Apple; the ported files differ by the steps of docs/Porting.md only, which
// ApplePortingFixtureTests checks) and its XCTest cases. The codegen plugin's
// apps are targets of the main package (Tests/Fixtures/CodegenApps): here they
// made this build compile the library a second time, as the plugin's host tool.
let package = Package(
    name: "ClientPackage",
    dependencies: [.package(path: root.path)],
    targets: [
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
