extension Array where Element: AnyObject {
    /// Calls `body` with each element, in order, without retaining and
    /// releasing it around the call as a `for` loop does (~40 instructions
    /// an element, in a save's passes over its objects). The array (a copy,
    /// if the caller's storage may change meanwhile) keeps the elements
    /// alive; `body` may change other arrays, and whatever it keeps of an
    /// element it retains as usual.
    func forEachUnretained(_ body: (Element) throws -> Void) rethrows {
        try withUnsafeBufferPointer { elements in
            for index in elements.indices {
                try Unmanaged.passUnretained(elements[index])._withUnsafeGuaranteedRef(body)
            }
        }
    }
}
