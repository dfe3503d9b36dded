// The module applications import: `import OpenCoreData` in place of
// `import CoreData`. The library itself is OpenCoreDataCore; this module
// re-exports it (and, through it, Foundation).
//
// Foundation on Linux declares NSPredicate, NSComparisonPredicate,
// NSCompoundPredicate, NSExpression and NSSortDescriptor too. In a file that
// imports Foundation (or XCTest, which re-exports it) besides OpenCoreData,
// a plain re-export leaves those names ambiguous wherever a type is expected
// ("'NSPredicate' is ambiguous for type lookup"): Swift does not let one
// module's types shadow another's there. A scoped import does take
// precedence over whole-module imports, also when it is re-exported, so each
// colliding class is re-exported here by name. ApplePortingTests checks it
// from a file importing XCTest, Foundation and OpenCoreData.
@_exported import OpenCoreDataCore
@_exported import class OpenCoreDataCore.NSPredicate
@_exported import class OpenCoreDataCore.NSComparisonPredicate
@_exported import class OpenCoreDataCore.NSCompoundPredicate
@_exported import class OpenCoreDataCore.NSExpression
@_exported import class OpenCoreDataCore.NSSortDescriptor
