// OpenCoreDataCore re-exports Foundation so that code written for Core Data
// needs only `import OpenCoreData` (the module in Sources/OpenCoreDataExports,
// which re-exports this one and says how Foundation's colliding class names
// are resolved to this library's).
@_exported import Foundation
