import Foundation
import Testing
@testable import OpenCoreDataCore

/// What stops a copy migration, and what it leaves: the source as it was,
/// no destination file (or the one there before), no working file.
/// https://developer.apple.com/documentation/coredata/nsmigrationmanager/cancelmigrationwitherror(_:)
/// https://developer.apple.com/documentation/coredata/1535452-validation_error_codes (134110–134170)
@Suite(.serialized) struct CustomMigrationErrorTests {
    /// Runs the fixture's migration with `mapping` and returns what it threw,
    /// after checking that nothing was written.
    static func failure(_ mapping: NSMappingModel, destination: NSManagedObjectModel? = nil,
                        fixture: CustomMigrationFixture? = nil) throws -> NSError {
        let fixture = try fixture ?? CustomMigrationFixture()
        let before = try Data(contentsOf: fixture.url)
        let filesBefore = fixture.folderContents
        let manager = NSMigrationManager(sourceModel: fixture.source,
                                         destinationModel: destination ?? fixture.destination)
        manager.batchSize = 2
        var thrown: NSError?
        do { _ = try fixture.migrate(manager, mapping: mapping) } catch { thrown = error as NSError }
        #expect(try Data(contentsOf: fixture.url) == before)
        // Reading the source in WAL mode may leave its -wal and -shm files, as any reader does.
        #expect(fixture.folderContents.filter { !$0.hasPrefix("Store.sqlite-") } == filesBefore)
        return try #require(thrown)
    }

    /// "If a policy method returns an error, the migration stops": what it
    /// threw is what migrateStore throws, and the destination is not made.
    @Test func throwingPolicyLeavesEverythingAsItWas() throws {
        let error = try Self.failure(CustomMigrationFixture.mapping(notePolicy: "FailingNotePolicy"))
        #expect(error.domain == "PolicyTest" && error.code == 7)
    }

    /// cancelMigrationWithError(_:) from a policy: migrateStore throws that error.
    @Test func cancellationThrowsTheGivenError() throws {
        let error = try Self.failure(CustomMigrationFixture.mapping(notePolicy: "CancellingNotePolicy"))
        #expect(error.code == NSMigrationCancelledError)
    }

    /// An existing destination stays as it was when the migration fails.
    @Test func existingDestinationIsKeptOnFailure() throws {
        let fixture = try CustomMigrationFixture()
        let destinationURL = fixture.url.deletingLastPathComponent().appendingPathComponent("Migrated.sqlite")
        try MigrationModels.writeVersion1(to: destinationURL, model: MigrationModels().model())
        let before = try Data(contentsOf: destinationURL)
        _ = try Self.failure(CustomMigrationFixture.mapping(notePolicy: "FailingNotePolicy"), fixture: fixture)
        #expect(try Data(contentsOf: destinationURL) == before)
    }

    /// A policy class no module declares: NSEntityMigrationPolicyError (134170) naming it.
    @Test func unknownPolicyClassIs134170() throws {
        let error = try Self.failure(CustomMigrationFixture.mapping(tagPolicy: "NoSuchPolicy"))
        #expect(error.code == NSEntityMigrationPolicyError)
        #expect(error.userInfo["className"] as? String == "NoSuchPolicy")
    }

    /// An expression that can't be evaluated: 134170 naming entity and property.
    @Test func failingExpressionIs134170NamingEntityAndProperty() throws {
        let mapping = CustomMigrationFixture.mapping()
        mapping.entityMappingsByName["NoteToNote"]!.attributeMappings![0].valueExpression =
            NSExpression(format: "FUNCTION($source.title, 'reversedWords')")
        let error = try Self.failure(mapping)
        #expect(error.code == NSEntityMigrationPolicyError)
        #expect(error.userInfo["entity"] as? String == "Note" && error.userInfo["property"] as? String == "heading")
    }

    /// A relationship mapping naming an entity mapping the model lacks: 134170 naming it.
    @Test func unknownEntityMappingNameIs134170() throws {
        let mapping = CustomMigrationFixture.mapping()
        mapping.entityMappingsByName["NoteToNote"]!.relationshipMappings![0] =
            CustomMigrationFixture.relink("folder", through: "NoSuchMapping")
        let error = try Self.failure(mapping)
        #expect(error.code == NSEntityMigrationPolicyError)
        #expect(error.userInfo["entityMapping"] as? String == "NoSuchMapping")
    }

    /// A mapping naming an entity the destination model lacks: 134110,
    /// "Mismatch between mapping and source/destination models".
    @Test func mappingNotMatchingTheModelsIs134110() throws {
        let mapping = CustomMigrationFixture.mapping()
        mapping.entityMappingsByName["TagToLabel"]!.destinationEntityName = "Sticker"
        let error = try Self.failure(mapping)
        #expect(error.code == NSMigrationError)
        #expect(error.localizedDescription.contains("Mismatch between mapping and source/destination models"))
        #expect(error.userInfo["entity"] as? String == "Sticker")
    }

    /// A destination instance the destination model finds invalid (a
    /// mandatory attribute no mapping fills): the validation error (1570).
    @Test func invalidDestinationInstanceFailsValidation() throws {
        let mapping = CustomMigrationFixture.mapping()
        mapping.entityMappingsByName["NoteToNote"]!.attributeMappings!.removeFirst()
        let error = try Self.failure(mapping, destination: CustomMigrationFixture.version2(headingRequired: true))
        let codes = [error.code] + ((error.userInfo[NSDetailedErrorsKey] as? [NSError]) ?? []).map(\.code)
        #expect(codes.contains(NSValidationMissingMandatoryPropertyError))
    }

    /// No source file: NSMigrationManagerSourceStoreError (134150).
    @Test func missingSourceIs134150() throws {
        let fixture = try CustomMigrationFixture()
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: fixture.destination)
        let missing = fixture.url.deletingLastPathComponent().appendingPathComponent("Missing.sqlite")
        #expect {
            try manager.migrateStore(from: missing, type: .sqlite, mapping: CustomMigrationFixture.mapping(),
                                     to: fixture.url.deletingLastPathComponent().appendingPathComponent("D.sqlite"),
                                     type: .sqlite)
        } throws: { ($0 as NSError).code == NSMigrationManagerSourceStoreError }
    }

    /// A destination that can't be created (its folder is a file):
    /// NSMigrationManagerDestinationStoreError (134160).
    @Test func unwritableDestinationIs134160() throws {
        let fixture = try CustomMigrationFixture()
        let blocker = fixture.url.deletingLastPathComponent().appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: fixture.destination)
        #expect {
            try manager.migrateStore(from: fixture.url, type: .sqlite, mapping: CustomMigrationFixture.mapping(),
                                     to: blocker.appendingPathComponent("D.sqlite"), type: .sqlite)
        } throws: { ($0 as NSError).code == NSMigrationManagerDestinationStoreError }
    }
}
