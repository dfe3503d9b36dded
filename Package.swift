// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd-demo", targets: ["ocd-demo"]),
    ],
    targets: [
        .target(name: "OpenCoreData"),
        .executableTarget(name: "ocd-demo", dependencies: ["OpenCoreData"]),
        .testTarget(name: "OpenCoreDataTests", dependencies: ["OpenCoreData"]),
    ],
    swiftLanguageModes: [.v6]
)
