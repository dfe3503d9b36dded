// Core Data's error codes (NSCocoaErrorDomain) and userInfo keys, with Apple's
// names and values (CoreDataErrors.h; see shared/reference §2.3, §2.4).

/// A value failed validation (the generic code: a rule in the model or the object's own
/// `validate…` method refused it).
public let NSManagedObjectValidationError = 1550
/// A uniqueness constraint was broken (Apple's code). A save under `NSErrorMergePolicy` reports
/// constraint conflicts as ``NSManagedObjectConstraintMergeError`` instead, here as on Apple's
/// platforms.
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation errors at once; each is in the `NSDetailedErrorsKey` array of `userInfo`.
public let NSValidationMultipleErrorsError = 1560
/// A non-optional attribute or to-one relationship is nil.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship has fewer destinations than its `minCount`.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship has more destinations than its `maxCount`.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A deleted object still has destinations in a relationship whose rule is `.denyDeleteRule`.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is above its attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is below its attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is after its attribute's maximum.
public let NSValidationDateTooLateError = 1630
/// A date is before its attribute's minimum.
public let NSValidationDateTooSoonError = 1640
/// A date attribute holds something that is not a date.
public let NSValidationInvalidDateError = 1650
/// A string is longer than its attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than its attribute's minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match its attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// A URI attribute holds something that is not a valid URL.
public let NSValidationInvalidURIError = 1690
/// A context's lock could not be taken (Apple's code; OpenCoreData serializes work on the context's
/// queue and does not throw it).
public let NSManagedObjectContextLockingError = 132000
/// A coordinator's lock could not be taken (Apple's code; not thrown here, for the same reason).
public let NSPersistentStoreCoordinatorLockingError = 132010
/// A fault fired for an object whose record no longer exists in the store.
public let NSManagedObjectReferentialIntegrityError = 133000
/// A saved object's relationship points to an object in another store.
public let NSManagedObjectExternalRelationshipError = 133010
/// A save found objects changed in the store since they were read (optimistic locking), and the
/// merge policy did not resolve the conflicts; they are under `NSPersistentStoreSaveConflictsErrorKey`
/// as ``NSMergeConflict``s.
public let NSManagedObjectMergeError = 133020
/// Uniqueness-constraint conflicts the merge policy could not resolve; they are under
/// `"conflictList"` as ``NSConstraintConflict``s, as on Apple's platforms.
public let NSManagedObjectConstraintMergeError = 133021
/// The file is not a store of the expected type, or its metadata is damaged (here also a
/// `Z_METADATA` whose UUID is not text or whose plist is not a dictionary).
public let NSPersistentStoreInvalidTypeError = 134000
/// The store returned an object of the wrong type.
public let NSPersistentStoreTypeMismatchError = 134010
/// The store's tables or columns do not fit the model (here the check that lets files written on
/// Apple devices open with ``NSIgnorePersistentStoreVersioningOption``).
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// A save failed in the store for a reason without a more specific code (here also a read-only
/// store, and a file of external binary data that could not be written).
public let NSPersistentStoreSaveError = 134030
/// One or more of several stores failed to save.
public let NSPersistentStoreIncompleteSaveError = 134040
/// A save met unresolved conflicts; they are under `NSPersistentStoreSaveConflictsErrorKey`.
/// Batch deletes also throw it when a delete rule refuses the request, with Core Data's message.
public let NSPersistentStoreSaveConflictsError = 134050
/// A Core Data error without a more specific code (here also a model that could not be found or
/// read by ``NSPersistentContainer``).
public let NSCoreDataError = 134060
/// A store operation failed (here also replacing a store that is open at the destination, and a
/// batch insert with an unknown key).
public let NSPersistentStoreOperationError = 134070
/// A store could not be opened (here also a `Z_PRIMARYKEY` table that is not Core Data's).
public let NSPersistentStoreOpenError = 134080
/// The store could not be reached within ``NSPersistentStoreTimeoutOption`` (SQLite: another
/// connection held the write lock that long).
public let NSPersistentStoreTimeoutError = 134090
/// The store cannot run this request type (batch inserts and deletes run on SQLite stores only).
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store's entity version hashes do not match the model's; the store's metadata is under
/// `"metadata"` and the file is left as it was.
public let NSPersistentStoreIncompatibleVersionHashError = 134100
/// A migration failed without a more specific code.
public let NSMigrationError = 134110
/// Migrated data breaks a constraint of the destination model.
public let NSMigrationConstraintViolationError = 134111
/// A migration was cancelled.
public let NSMigrationCancelledError = 134120
/// No model version matches the store being migrated.
public let NSMigrationMissingSourceModelError = 134130
/// No mapping model leads from the store's version to the current one (here: the change is not one
/// lightweight migration can infer).
public let NSMigrationMissingMappingModelError = 134140
/// The source store of a migration could not be read.
public let NSMigrationManagerSourceStoreError = 134150
/// The destination store of a migration could not be written.
public let NSMigrationManagerDestinationStoreError = 134160
/// An entity migration policy failed (Apple's code; custom policies are not implemented).
public let NSEntityMigrationPolicyError = 134170
/// SQLite reported an error: its result code is under `NSSQLiteErrorDomain` in `userInfo`, as on
/// Apple's platforms, and GRDB's error under `NSUnderlyingErrorKey`.
public let NSSQLiteError = 134180
/// A mapping model could not be inferred between two model versions.
public let NSInferredMappingModelError = 134190
/// Importing an external record failed (Apple's code; Spotlight external records do not exist on
/// Linux).
public let NSExternalRecordImportError = 134200
/// A history request starts from a token older than the history the store still keeps.
public let NSPersistentHistoryTokenExpiredError = 134301
/// A model a store or migration refers to could not be found.
public let NSManagedObjectModelReferenceNotFoundError = 134504

// userInfo keys, with the raw strings Core Data uses (observed in device logs).
/// The `userInfo` key of the array of errors an ``NSValidationMultipleErrorsError`` gathers.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The `userInfo` key of the object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The `userInfo` key of the name of the property that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The `userInfo` key of the validation predicate that failed.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The `userInfo` key of the value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The `userInfo` key of the stores an error concerns.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The `userInfo` key of the objects an error concerns.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The `userInfo` key of the conflicts (``NSMergeConflict``) an ``NSPersistentStoreSaveConflictsError``
/// reports.
public let NSPersistentStoreSaveConflictsErrorKey = "NSPersistentStoreSaveConflictsErrorKey"
/// SQLite's error domain, and the `userInfo` key under which an ``NSSQLiteError`` carries
/// SQLite's result code.
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"

extension NSError {
    /// An error in NSCocoaErrorDomain with `code`, a description a person can
    /// act on, and any further userInfo entries.
    static func coreData(_ code: Int, _ description: String, userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = description
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }
}
