import Foundation
import TestScratch

/// Running the toolchain (`swift`, `swiftc`) and reading what it printed.
enum Subprocess {
    struct Run { var status: Int32; var output: String }

    /// Runs `arguments` through `/usr/bin/env`, so the toolchain is the one on PATH
    /// (the one running `swift test`), with stdout and stderr together, and with
    /// `temporaryDirectory` as its TMPDIR.
    static func run(_ arguments: [String], in folder: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporaryDirectory.path]) { $1 }
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// The temporary folder of the processes `run` starts, in the tests' scratch folder: SwiftPM and the
    /// compiler leave files in theirs (`TemporaryDirectory.*` folders, `swift-generated-sources`, lock files).
    static let temporaryDirectory: URL = {
        let folder = ScratchDirectory.url("subprocess-tmp")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// The repository's root folder.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() } // …/Tests/OpenCoreDataTests/Codegen/Subprocess.swift
        return url
    }()

    /// The build folder holding the test bundle (`.build/<triple>/debug`), whose
    /// `Modules` has the OpenCoreData module generated code is checked against.
    static let buildFolder: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Modules/OpenCoreData.swiftmodule").path),
              url.path != "/" {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// `swiftc` arguments that make the built OpenCoreData importable, with
    /// the system SQLite module GRDB imports.
    static var moduleSearchArguments: [String] {
        let scratch = buildFolder.deletingLastPathComponent().deletingLastPathComponent()
        let sqlite = scratch.appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite")
        return ["-I", buildFolder.appendingPathComponent("Modules").path, "-I", sqlite.path]
    }
}
