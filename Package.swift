// swift-tools-version:6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

// Fuzzing builds every target with -sanitize=fuzzer, and a macro's compiler plugin can't be linked that way:
// with OPENCOREDATA_WITHOUT_MACROS set (Fuzz/README.md), the library leaves @Managed and @ManagedAccessor out.
let withoutMacros = ProcessInfo.processInfo.environment["OPENCOREDATA_WITHOUT_MACROS"] != nil

let package = Package(
    name: "OpenCoreData",
    products: [
        // Both modules, so that an application's incremental build sees changes of the library itself
        // (see the OpenCoreData target below).
        .library(name: "OpenCoreData", targets: ["OpenCoreData", "OpenCoreDataCore"]),
        .library(name: "OpenCoreDataCodegen", targets: ["OpenCoreDataCodegen"]),
        .executable(name: "ocd", targets: ["ocd"]),
        .executable(name: "ocd-demo", targets: ["ocd-demo"]),
        .plugin(name: "OpenCoreDataCodegenPlugin", targets: ["OpenCoreDataCodegenPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The SQL debug log (CoreDataDebug); 1.16 for LogHandler.log(event:).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // The @Managed and @ManagedAccessor macros (a cold build costs about two minutes more; see the commit).
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"700.0.0"),
        // `swift package generate-documentation`: the DocC catalog Sources/OpenCoreData/OpenCoreDataCore.docc (README).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The library. Applications import it through `OpenCoreData` below.
        .target(name: "OpenCoreDataCore",
                dependencies: (withoutMacros ? [] : ["OpenCoreDataMacros"]) + [
                    .product(name: "GRDB", package: "GRDB.swift"),
                    .product(name: "GRDBSQLite", package: "GRDB.swift"),
                    .product(name: "Logging", package: "swift-log"),
                ],
                path: "Sources/OpenCoreData",
                exclude: withoutMacros ? ["Object/ManagedMacros.swift"] : []),
        // `@Managed` properties and `@ManagedAccessor` relationship functions: Linux's `@NSManaged`.
        .macro(name: "OpenCoreDataMacros", dependencies: [
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        ]),
        // The module applications import: re-exports the library, and by name the classes whose names
        // Foundation on Linux declares too, so that they are not ambiguous next to `import Foundation`.
        // Targets here list OpenCoreDataCore beside it: an incremental build recompiles a target when a
        // module it depends on directly changes, and the re-export alone hid the library's changes
        // (stale class layouts in the tools).
        .target(name: "OpenCoreData", dependencies: ["OpenCoreDataCore"], path: "Sources/OpenCoreDataExports"),
        // Swift source from a model, for `ocd generate` and the build plugin; apps don't link it.
        .target(name: "OpenCoreDataCodegen", dependencies: ["OpenCoreData", "OpenCoreDataCore"]),
        // Presentation shared by the command-line tool and the demo; the library does not depend on it.
        .target(name: "OpenCoreDataTools",
                dependencies: ["OpenCoreData", "OpenCoreDataCore", .product(name: "GRDB", package: "GRDB.swift")]),
        .executableTarget(name: "ocd", dependencies: [
            "OpenCoreDataTools",
            "OpenCoreDataCore",
            "OpenCoreDataCodegen",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Xcode's "Class Definition" codegen at build time: runs `ocd generate` on a target's models.
        .plugin(name: "OpenCoreDataCodegenPlugin", capability: .buildTool(), dependencies: ["ocd"]),
        .executableTarget(name: "ocd-demo", dependencies: ["OpenCoreDataTools", "OpenCoreDataCore"]),
        // Applications whose classes the codegen plugin generates at build time, as Xcode's "Class Definition"
        // would (Tests/Fixtures/CodegenApps); CodegenPluginFixtureTests runs them. Another package using the plugin
        // would build the library and GRDB twice more (as targets and as the plugin's host tool) in every test run.
        // Not dependencies of the tests, unlike the processes below: a test target links the executables it
        // depends on, and their generated `Album` and `Photo` would be what the tests' models' bare class names
        // resolve to. `swift test` builds every target, these too.
        .executableTarget(name: "FrozenTimeApp", dependencies: ["OpenCoreData", "OpenCoreDataCore"],
                          path: "Tests/Fixtures/CodegenApps/FrozenTimeApp",
                          // Copied so that the app can load the model at run time; the plugin sees it either way.
                          resources: [.copy("FrozenTime.xcdatamodeld")],
                          plugins: ["OpenCoreDataCodegenPlugin"]),
        // Ordered relationships, inheritance, a category entity and custom classes.
        .executableTarget(name: "CodegenFeatures", dependencies: ["OpenCoreData", "OpenCoreDataCore"],
                          path: "Tests/Fixtures/CodegenApps/CodegenFeatures",
                          resources: [.copy("Shelf.xcdatamodeld")],
                          plugins: ["OpenCoreDataCodegenPlugin"]),
        // Core Data code in Apple's style, as an application's package has it (Tests/Fixtures/Gallery): Xcode's
        // "Manual/None" classes, a hand-written class and the Xcode template's PersistenceController, in Swift 5
        // mode as most applications still are; AppleOriginals/ there holds it as written for Apple, and the ported
        // files differ by the steps of docs/Porting.md only (ApplePortingFixtureTests). Its XCTest cases are an
        // executable that ApplePortingFixtureTests runs, not a test target, for the reason given above.
        .target(name: "Gallery", dependencies: ["OpenCoreData", "OpenCoreDataCore"],
                path: "Tests/Fixtures/Gallery/Sources/Gallery",
                resources: [.copy("Gallery.xcdatamodeld")],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "GalleryTests", dependencies: ["Gallery", "OpenCoreData", "OpenCoreDataCore"],
                          path: "Tests/Fixtures/Gallery/Tests/GalleryTests",
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        // A child process for the SQLite crash test: saves until it is killed.
        .executableTarget(name: "StoreCrashWriter", dependencies: ["OpenCoreData", "OpenCoreDataCore"],
                          path: "Tests/StoreCrashWriter"),
        // A child process for the remote-change test: saves once with persistent history.
        .executableTarget(name: "HistoryWriter", dependencies: ["OpenCoreData", "OpenCoreDataCore"],
                          path: "Tests/HistoryWriter"),
        // The tests' scratch folder (one per test process, removed at exit), for both test targets.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        // Depends on `ocd` and the child processes so that `swift test` builds what its tests run as subprocesses.
        .testTarget(name: "OpenCoreDataTests", dependencies: [
            "OpenCoreData", "OpenCoreDataCore", "OpenCoreDataTools", "OpenCoreDataCodegen", "ocd", "ocd-demo",
            "StoreCrashWriter", "HistoryWriter", "TestScratch", .product(name: "Logging", package: "swift-log"),
        ]),
        // Code in Apple's style (XCTest, Foundation and the Core Data module side by side) that must
        // compile with only the import changed; it sees the library as applications do.
        // Its model is a resource, as an app's would be, for NSPersistentContainer(name:).
        // Code written for Apple's Core Data compiles here without a warning too (an unused
        // result of an Objective-C method, which Swift lets go on Apple, is one): warnings are errors.
        .testTarget(name: "ApplePortingTests", dependencies: ["OpenCoreData", "OpenCoreDataCore", "TestScratch"],
                    resources: [.copy("Resources/PortingModel.xcdatamodeld")],
                    swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
    ],
    swiftLanguageModes: [.v6]
)
