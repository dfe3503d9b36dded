import Foundation
import Testing
@testable import OpenCoreDataCore

/// `Array.hasSameObjects(inOrderAs:)`: identity, not equality, position by position.
struct SameObjectsTests {
    private final class Item {}

    @Test func sameObjectsInTheSameOrderOnly() {
        let items = (0..<4).map { _ in Item() }
        #expect([Item]().hasSameObjects(inOrderAs: []))
        #expect(items.hasSameObjects(inOrderAs: items))
        #expect(items.hasSameObjects(inOrderAs: Array(items[...])))
        #expect(!items.hasSameObjects(inOrderAs: items.reversed()))
        #expect(!items.hasSameObjects(inOrderAs: Array(items.dropLast())))
        #expect(!items.hasSameObjects(inOrderAs: items.dropLast() + [Item()]))
        #expect(!items.hasSameObjects(inOrderAs: items.dropLast() + [items[0]]))
    }
}
