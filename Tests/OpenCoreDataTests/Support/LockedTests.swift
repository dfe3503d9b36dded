import Dispatch
import Testing
@testable import OpenCoreDataCore

/// `Locked`: a value changed by one thread at a time. These tests run with
/// the suite under ThreadSanitizer too (docs/Reliability.md), where the
/// plans' test reported a race on every run of the suite while the plans
/// were behind `Synchronization.Mutex`, whose futex waits TSan does not see.
@Suite struct LockedTests {
    @Test func changesFromManyThreadsAllCount() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func aThrowingBodyLeavesTheLockFree() {
        struct Refused: Error {}
        let value = Locked([1])
        #expect(throws: Refused.self) { try value.withLock { (_: inout [Int]) throws(Refused) in throw Refused() } }
        #expect(value.withLock { $0.append(2); return $0 } == [1, 2])
    }

    /// The first saves of a model on several queues at once make its
    /// derived-attribute plan once, under the lock.
    @Test func derivedAttributePlansAreMadeOncePerModelFromAnyThread() {
        let model = DerivedAttributeTests.model()
        let plans = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let plan = DerivedAttributePlan.of(model)
            plans.withLock { $0.append(ObjectIdentifier(plan)) }
        }
        #expect(plans.withLock { Set($0).count } == 1)
    }
}
