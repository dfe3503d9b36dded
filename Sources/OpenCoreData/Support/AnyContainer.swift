/// An `Any`'s existential container read in place, for hot paths that know
/// which types to expect: where a cast through the runtime costs 200 to 350
/// instructions, a look at the stored type and a load cost a few.
///
/// Swift's `Any` is three words of value buffer and the stored type's
/// metadata. A value of at most three words that moves bitwise lies in the
/// buffer, at its start; so does a class reference, whose stored type may be
/// a superclass of the instance's (how `NSObject`'s `==` passes its operands).
/// An `Any` made in generic code from another `Any` stores that inner
/// container out of line, while `type(of:)` looks through it, so a reader
/// checks the stored type before it reads the buffer as a value.
struct AnyContainer {
    private let address: UnsafeRawPointer

    /// `body`'s result for the container of `value`, read where it lies.
    @inline(__always)
    static func read<Result>(_ value: Any, _ body: (AnyContainer) -> Result) -> Result {
        withUnsafePointer(to: value) { body(AnyContainer(address: UnsafeRawPointer($0))) }
    }

    /// `body`'s result for the container of `value`, read where it lies without unwrapping it: an
    /// `Any?` is an `Any` whose metadata word holds an invalid address for nil, so a container found
    /// storing a type (`isStored(as:)`) holds a value. `if let` on an `Any?` copies the value first.
    @inline(__always)
    static func read<Result>(optional value: borrowing Any?, _ body: (AnyContainer) -> Result) -> Result {
        withUnsafePointer(to: value) { body(AnyContainer(address: UnsafeRawPointer($0))) }
    }

    /// Whether the value was stored as `type` (the container's metadata word).
    @inline(__always)
    func isStored(as type: Any.Type) -> Bool {
        address.load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
            == unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// The type the value was stored as (the container's metadata word): the value's own type for a
    /// value type, perhaps a superclass for a class instance, `Any` for a container stored inside.
    /// `type(of:)` asks the runtime (~50 instructions) to look through the last two.
    @inline(__always)
    var storedType: Any.Type {
        unsafeBitCast(address.load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: UnsafeRawPointer.self),
                      to: Any.Type.self)
    }

    /// The buffer's first bytes as `T`: the value when it was stored as `T`,
    /// the reference for a class instance; for anything else only a word to
    /// compare (a box's address). `load` copies (a string's storage is retained).
    @inline(__always)
    func load<T>(as type: T.Type) -> T {
        address.load(as: T.self)
    }
}
