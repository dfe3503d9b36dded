// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd", targets: ["ocd"]),
        .executable(name: "ocd-demo", targets: ["ocd-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "OpenCoreData", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // Presentation shared by the command-line tool and the demo; the library does not depend on it.
        .target(name: "OpenCoreDataTools", dependencies: ["OpenCoreData"]),
        .executableTarget(name: "ocd", dependencies: [
            "OpenCoreDataTools",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "ocd-demo", dependencies: ["OpenCoreDataTools"]),
        // A child process for the SQLite crash test: saves until it is killed.
        .executableTarget(name: "StoreCrashWriter", dependencies: ["OpenCoreData"], path: "Tests/StoreCrashWriter"),
        // Depends on `ocd` and the crash writer so that `swift test` builds what its tests run as subprocesses.
        .testTarget(name: "OpenCoreDataTests", dependencies: ["OpenCoreData", "OpenCoreDataTools", "ocd", "StoreCrashWriter"]),
    ],
    swiftLanguageModes: [.v6]
)
