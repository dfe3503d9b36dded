// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets: their own package, so that the library never depends on
// fuzzing code. Build and run as Fuzz/README.md says:
//   OPENCOREDATA_WITHOUT_MACROS=1 swift build -c release --package-path Fuzz \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// (the variable leaves out the library's macros, whose compiler plugin can't be linked with the sanitizers)
let package = Package(
    name: "OpenCoreDataFuzz",
    dependencies: [
        .package(name: "OpenCoreData", path: ".."),
    ],
    targets: [
        // libFuzzer's driver declared for Swift (each target's main calls it).
        .target(name: "CLibFuzzer"),
        // The fixed model, the fixed store and the full read the targets share.
        .target(name: "FuzzSupport",
                dependencies: ["CLibFuzzer", .product(name: "OpenCoreData", package: "OpenCoreData")]),
        // (a) model files: `.xcdatamodel/contents` XML.
        .executableTarget(name: "FuzzModelReader", dependencies: ["FuzzSupport"]),
        // (b) store files: opened with and without a model, every object read.
        .executableTarget(name: "FuzzStoreOpen", dependencies: ["FuzzSupport"]),
        // (c) predicate format strings: parse, print, parse again, evaluate.
        .executableTarget(name: "FuzzPredicateParser", dependencies: ["FuzzSupport"]),
        // (d) predicates fetched from a small fixed SQLite store (SQL and memory).
        .executableTarget(name: "FuzzPredicateSQL", dependencies: ["FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
