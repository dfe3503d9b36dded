import Foundation
import Testing
@testable import OpenCoreDataCore

/// `-com.apple.CoreData.ConcurrencyDebug 1` (issue 17): with the checks on, a
/// context or its objects used on a thread that is not running the
/// context's work stop the program, naming what was touched; inside
/// `perform`/`performAndWait` nothing stops. The checks run in child
/// processes (exit tests): switched on here they would stop the other tests.
@Suite struct ConcurrencyDebugTests {
    @Test func useOffTheContextsQueueStopsTheProgramNamingEntityKeyAndQueue() async throws {
        let reading = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CoreDataDebug.concurrencyDebug = true
            let context = try TestStack.context(TestStack.albumsModel())
            let photo = context.performAndWait { TestStack.insert("Photo", into: context, ["name": "p"]) }
            _ = photo.value(forKey: "name")
        }
        let message = String(decoding: try #require(reading).standardErrorContent, as: UTF8.self)
        #expect(message.contains("CoreData ConcurrencyDebug: reading Photo.name off the context's queue"))
        #expect(message.contains("private queue"))
        let fetching = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CoreDataDebug.concurrencyDebug = true
            let context = try TestStack.context(TestStack.albumsModel())
            context.name = "importer"
            _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        }
        let fetchMessage = String(decoding: try #require(fetching).standardErrorContent, as: UTF8.self)
        #expect(fetchMessage.contains("fetching Album") && fetchMessage.contains("context importer"))
    }

    @Test func workOnTheContextsQueueDoesNotStop() async {
        await #expect(processExitsWith: .success) {
            CoreDataDebug.concurrencyDebug = true
            let context = try TestStack.context(TestStack.albumsModel())
            try context.performAndWait { () throws in
                let album = TestStack.insert("Album", into: context, ["name": "a"])
                TestStack.insert("Photo", into: context, ["name": "p", "album": album])
                try context.save()
                _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")).first?.value(forKey: "name")
            }
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = context
            try await child.perform {
                let album = try child.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first
                album?.setValue("b", forKey: "name")
                try child.save()
            }
        }
    }

    /// Switched on as Apple's: the launch argument, or the environment for servers.
    @Test func switchedOnByTheLaunchArgumentOrTheEnvironment() {
        let argument = CoreDataDebug.concurrencyDebugArgument
        let variable = CoreDataDebug.concurrencyDebugEnvironmentVariable
        #expect(argument == "-com.apple.CoreData.ConcurrencyDebug")
        #expect(CoreDataDebug.level(argument: argument, environmentVariable: variable,
                                    arguments: ["app", argument, "1"], environment: [:]) == 1)
        #expect(CoreDataDebug.level(argument: argument, environmentVariable: variable,
                                    arguments: ["app"], environment: [variable: "YES"]) == 1)
        #expect(CoreDataDebug.level(argument: argument, environmentVariable: variable,
                                    arguments: ["app"], environment: [:]) == 0)
        #expect(!CoreDataDebug.concurrencyDebug)
    }
}
