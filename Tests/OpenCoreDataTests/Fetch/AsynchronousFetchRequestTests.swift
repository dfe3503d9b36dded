import Foundation
import Testing
@testable import OpenCoreDataCore

/// NSAsynchronousFetchRequest (https://developer.apple.com/documentation/coredata/nsasynchronousfetchrequest):
/// `execute(_:)` returns an NSAsynchronousFetchResult at once; the fetch runs on the context's queue, the
/// completion block gets the result with `finalResult`; `progress` reports it (a child of the progress
/// current at execution) and `cancel()` stops it (NSPersistentStoreAsynchronousResult).
@Suite struct AsynchronousFetchRequestTests {
    /// Waits for the completion block, which runs on the context's queue.
    final class Completion: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var names: [String]?
        var error: NSError?

        func wait() -> Bool { done.wait(timeout: .now() + 10) == .success }
    }

    static func request(_ completion: Completion, predicate: String? = nil)
        -> NSAsynchronousFetchRequest<NSManagedObject> {
        let fetch = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        fetch.predicate = predicate.map { NSPredicate(format: $0) }
        fetch.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return NSAsynchronousFetchRequest(fetchRequest: fetch) { result in
            completion.names = result.finalResult?.map { $0.value(forKey: "name") as? String ?? "" }
            completion.error = result.operationError as NSError?
            completion.done.signal()
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func fetchesLaterOnTheContextsQueue(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let completion = Completion()
        let parent = Progress(totalUnitCount: 1)
        let result = try context.performAndWait { () throws -> NSAsynchronousFetchResult<NSManagedObject> in
            for name in ["b", "a", "c"] { TestStack.insert("Photo", into: context, ["name": name]) }
            try context.save()
            let request = Self.request(completion, predicate: "name != 'c'")
            request.estimatedResultCount = 5
            parent.becomeCurrent(withPendingUnitCount: 1)
            let result = try #require(try context.execute(request) as? NSAsynchronousFetchResult<NSManagedObject>)
            parent.resignCurrent()
            // The fetch waits for this block to leave the context's queue.
            #expect(result.finalResult == nil && result.progress?.totalUnitCount == 5)
            #expect(result.managedObjectContext === context && result.fetchRequest === request)
            return result
        }
        #expect(completion.wait())
        #expect(completion.names == ["a", "b"] && completion.error == nil)
        #expect(result.finalResult?.count == 2 && result.progress?.completedUnitCount == 2)
        #expect(parent.fractionCompleted == 1)
    }

    /// Cancelled before it ran, the fetch doesn't run; the completion block gets NSUserCancelledError
    /// (3072) [Inf: Apple documents `cancel()`, not what the block then gets].
    @Test func cancelStopsAFetchThatHasNotRun() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        let completion = Completion()
        let result = try context.performAndWait { () throws -> NSPersistentStoreAsynchronousResult in
            TestStack.insert("Photo", into: context, ["name": "a"])
            try context.save()
            let executed = try context.execute(Self.request(completion))
            let result = try #require(executed as? NSPersistentStoreAsynchronousResult)
            result.cancel()
            return result
        }
        #expect(completion.wait())
        #expect(completion.names == nil && completion.error?.code == CocoaError.userCancelled.rawValue)
        #expect(result.progress?.isCancelled == true && result.operationError != nil)
    }

    /// A fetch that fails hands its error to the completion block as `operationError`.
    @Test func aFailingFetchReportsItsError() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        let completion = Completion()
        try context.performAndWait { () throws in
            _ = try context.execute(Self.request(completion, predicate: "nope == 1"))
        }
        #expect(completion.wait())
        #expect(completion.names == nil && completion.error != nil)
    }
}
