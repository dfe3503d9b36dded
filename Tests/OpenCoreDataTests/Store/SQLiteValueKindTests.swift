import Foundation
import Testing
@testable import OpenCoreDataCore

/// The SQL kind of a predicate constant decides whether a comparison runs in
/// SQL: the same kind for a type whether it is found by identity (the common
/// types) or by the general casts (bridged and other integer types).
@Suite struct SQLiteValueKindTests {
    @Test func constantsHaveTheKindsOfTheirTypes() {
        let expected: [(Any, SQLiteValueKind?)] = [
            ("a", .string), ("a" as NSString, .string), (Substring("a"), .string),
            (7, .number), (Int64(7), .number), (Int32(7), .number), (Int16(7), .number), (Int8(7), .number),
            (UInt(7), .number), (2.5, .number), (Float(2.5), .number), (true, .number), (Decimal(7), .number),
            (NSNumber(value: 7), .number), (Date(timeIntervalSince1970: 7), .date),
            (NSDate(timeIntervalSince1970: 7), .date), (Data([7]), .data), (UUID(), .uuid),
            (URL(string: "https://example.com")!, .url), ([7], nil), (NSNull(), nil),
        ]
        for (constant, kind) in expected {
            #expect(SQLiteValueKind(constant: constant) == kind, "\(type(of: constant)) \(constant)")
        }
    }
}
