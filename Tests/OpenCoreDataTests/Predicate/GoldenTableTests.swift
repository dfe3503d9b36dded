import Testing
@testable import OpenCoreDataCore

/// The acceptance table of issue 4: every row parses, prints to a string that
/// parses to an equal predicate (and prints the same again), and evaluates to
/// the expected value against the fixed data, before and after the round trip.
@Suite struct GoldenTableTests {
    @Test func tableHasEnoughRows() {
        #expect(GoldenTable.rows.count >= 300)
        #expect(Set(GoldenTable.rows.map(\.format)).count >= 300)
    }

    @Test func everyRowParsesPrintsReparsesAndEvaluates() throws {
        for row in GoldenTable.rows {
            let predicate: NSPredicate
            do {
                predicate = try NSPredicate.parse(row.format, arguments: row.args)
            } catch {
                Issue.record("\(row.format): \(error)")
                continue
            }
            let printed = predicate.predicateFormat
            do {
                let reparsed = try NSPredicate.parse(printed)
                #expect(reparsed == predicate, "\(row.format) printed as \(printed)")
                #expect(reparsed.predicateFormat == printed, "\(row.format)")
                #expect(reparsed.hash == predicate.hash, "\(row.format)")
                let again = try reparsed.evaluateThrowing(with: Fixtures.adam, substitutionVariables: row.vars)
                #expect(again == row.expected, "\(row.format) after round trip: \(printed)")
            } catch {
                Issue.record("\(row.format) printed as \(printed): \(error)")
            }
            do {
                let value = try predicate.evaluateThrowing(with: Fixtures.adam, substitutionVariables: row.vars)
                #expect(value == row.expected, "\(row.format) → \(printed)")
            } catch {
                Issue.record("\(row.format): \(error)")
            }
        }
    }
}
