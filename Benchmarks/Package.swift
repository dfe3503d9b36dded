// swift-tools-version:6.0
import PackageDescription

// The benchmark package: its own package so that the library never depends on
// benchmark-only code. Run with `swift run -c release --package-path Benchmarks ocd-bench`.
let package = Package(
    name: "OpenCoreDataBenchmarks",
    dependencies: [
        .package(name: "OpenCoreData", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        .executableTarget(name: "ocd-bench", dependencies: [
            .product(name: "OpenCoreData", package: "OpenCoreData"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
