import Foundation
import Testing
@testable import OpenCoreDataCore

/// `ContextWord`: the context and the two flags set and read in every
/// order without disturbing one another.
@Suite struct ContextWordTests {
    @Test func everyCombinationRoundTrips() {
        let contexts = [NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType),
                        NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)]
        var word = ContextWord()
        #expect(word.context == nil && !word.isFault && !word.hasAwokenFromInsert)
        for context in [nil] + contexts.map(Optional.some) {
            for isFault in [false, true] {
                for awoken in [false, true] {
                    word.isFault = isFault
                    word.context = context.map(Unmanaged.passUnretained)
                    word.hasAwokenFromInsert = awoken
                    #expect(word.context?.takeUnretainedValue() === context)
                    #expect(word.isFault == isFault && word.hasAwokenFromInsert == awoken)
                }
            }
        }
        word.context = nil
        #expect(word.context == nil && word.isFault && word.hasAwokenFromInsert)
    }
}
