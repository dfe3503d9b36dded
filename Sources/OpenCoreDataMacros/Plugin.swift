import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin holding OpenCoreData's macros.
@main
struct OpenCoreDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [ManagedMacro.self, ManagedAccessorMacro.self]
}
