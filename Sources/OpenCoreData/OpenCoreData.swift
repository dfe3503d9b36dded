// OpenCoreData re-exports Foundation so that code written for Core Data needs
// only `import OpenCoreData`. Types declared here (NSPredicate, NSExpression,
// NSSortDescriptor) shadow Foundation's Linux stubs of the same names.
@_exported import Foundation
