// Finding a class from the bare name a model gives it ("Photo", ".Photo"), as Xcode writes it for a
// class in the "Current Product Module". `_typeByName` needs the module ("MyApp.Photo"), and on Linux
// the module of an app's or test target's classes is not knowable from the process name alone (test
// targets are linked into one `…PackageTests.xctest`). The Swift runtime lists every loaded image's
// type metadata records (`swift_enumerateAllMetadataSections`, which swift-testing's discovery uses
// too); each record leads to a type's context descriptor, whose parent names its module.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private typealias SectionVisitor = @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Bool
private typealias EnumerateSections = @convention(c) (SectionVisitor, UnsafeMutableRawPointer) -> Void

/// Looked up at run time rather than declared with `@_silgen_name`, which crashes this compiler's
/// region-based isolation pass (Swift 6.3.1), and so that a runtime without it finds nothing.
private let enumerateAllMetadataSections: EnumerateSections? = {
    guard let process = dlopen(nil, RTLD_NOW),
          let symbol = dlsym(process, "swift_enumerateAllMetadataSections") else { return nil }
    return unsafeBitCast(symbol, to: EnumerateSections.self)
}()

/// What one search looks for and has found; handed to the C callback as its context.
private final class ClassNameSearch {
    let name: [UInt8]
    var modules: [String] = []
    init(_ name: String) { self.name = Array(name.utf8) }
}

private func visitSections(_ sections: UnsafeRawPointer, _ context: UnsafeMutableRawPointer) -> Bool {
    let search = Unmanaged<ClassNameSearch>.fromOpaque(context).takeUnretainedValue()
    // MetadataSections (swift/include/swift/Runtime/MetadataSections.h): version, baseAddress,
    // two unused words, then (start, length) ranges: protocols, protocol conformances, type
    // metadata, …
    guard sections.load(as: UInt.self) >= 1 else { return true }
    let start = sections.load(fromByteOffset: 8 * MemoryLayout<UInt>.size, as: UInt.self)
    let length = sections.load(fromByteOffset: 9 * MemoryLayout<UInt>.size, as: UInt.self)
    guard let records = UnsafeRawPointer(bitPattern: start) else { return true }
    for offset in stride(from: 0, to: Int(length), by: 4) {
        let record = records + offset
        let value = record.load(as: Int32.self)
        // Kind 0 is a direct reference to a type context descriptor.
        guard value & 3 == 0 else { continue }
        if let module = ClassNameLookup.moduleOfClass(record + Int(value), named: search.name) {
            search.modules.append(module)
        }
    }
    return true
}

enum ClassNameLookup {
    /// The class `name` names, if it is a `T`: qualified names ("MyApp.Photo") through `_typeByName`,
    /// bare ones in every module declaring a class of that name (the first that is a `T` wins).
    static func type<T>(named name: String, as _: T.Type) -> T? {
        if name.contains(".") { return _typeByName(name) as? T }
        for module in modules(declaringClassNamed: name) {
            if let found = _typeByName(module + "." + name) as? T { return found }
        }
        return nil
    }

    /// The modules that declare a top-level class named `name`, in image load order
    /// (the executable's own modules first).
    static func modules(declaringClassNamed name: String) -> [String] {
        guard let enumerate = enumerateAllMetadataSections else { return [] }
        let search = ClassNameSearch(name)
        let context = Unmanaged.passRetained(search)
        enumerate(visitSections, context.toOpaque())
        context.release()
        return search.modules
    }

    /// The module of the class `descriptor` describes when the class is named `name` and declared
    /// at the top level of its module.
    static func moduleOfClass(_ descriptor: UnsafeRawPointer, named name: [UInt8]) -> String? {
        // Context descriptor: flags (kind in the low 5 bits; 16 = class), relative parent,
        // then for types a relative pointer to the name.
        guard descriptor.load(as: UInt32.self) & 0x1F == 16,
              cString(descriptor + 8, equals: name),
              let parent = relativeTarget(descriptor + 4, indirectable: true),
              parent.load(as: UInt32.self) & 0x1F == 0  // module
        else { return nil }
        let moduleName = parent + 8 + Int(parent.load(fromByteOffset: 8, as: Int32.self))
        return String(cString: moduleName.assumingMemoryBound(to: CChar.self))
    }

    private static func cString(_ field: UnsafeRawPointer, equals name: [UInt8]) -> Bool {
        let string = field + Int(field.load(as: Int32.self))
        for (index, byte) in name.enumerated() where string.load(fromByteOffset: index, as: UInt8.self) != byte {
            return false
        }
        return string.load(fromByteOffset: name.count, as: UInt8.self) == 0
    }

    /// The target of a relative pointer; an indirectable one whose low bit is set points at a
    /// pointer to the target.
    private static func relativeTarget(_ field: UnsafeRawPointer, indirectable: Bool) -> UnsafeRawPointer? {
        let value = field.load(as: Int32.self)
        guard value != 0 else { return nil }
        if indirectable && value & 1 == 1 {
            return (field + Int(value & ~1)).load(as: UnsafeRawPointer?.self)
        }
        return field + Int(value)
    }
}
