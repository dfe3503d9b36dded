// Core Data's error codes (NSCocoaErrorDomain) and userInfo keys, with Apple's
// names and values (CoreDataErrors.h; see shared/reference §2.3, §2.4).

public let NSManagedObjectValidationError = 1550
public let NSManagedObjectConstraintValidationError = 1551
public let NSValidationMultipleErrorsError = 1560
public let NSValidationMissingMandatoryPropertyError = 1570
public let NSValidationRelationshipLacksMinimumCountError = 1580
public let NSValidationRelationshipExceedsMaximumCountError = 1590
public let NSValidationRelationshipDeniedDeleteError = 1600
public let NSValidationNumberTooLargeError = 1610
public let NSValidationNumberTooSmallError = 1620
public let NSValidationDateTooLateError = 1630
public let NSValidationDateTooSoonError = 1640
public let NSValidationInvalidDateError = 1650
public let NSValidationStringTooLongError = 1660
public let NSValidationStringTooShortError = 1670
public let NSValidationStringPatternMatchingError = 1680
public let NSValidationInvalidURIError = 1690
public let NSManagedObjectContextLockingError = 132000
public let NSPersistentStoreCoordinatorLockingError = 132010
public let NSManagedObjectReferentialIntegrityError = 133000
public let NSManagedObjectExternalRelationshipError = 133010
public let NSManagedObjectMergeError = 133020
public let NSManagedObjectConstraintMergeError = 133021
public let NSPersistentStoreInvalidTypeError = 134000
public let NSPersistentStoreTypeMismatchError = 134010
public let NSPersistentStoreIncompatibleSchemaError = 134020
public let NSPersistentStoreSaveError = 134030
public let NSPersistentStoreIncompleteSaveError = 134040
public let NSPersistentStoreSaveConflictsError = 134050
public let NSCoreDataError = 134060
public let NSPersistentStoreOperationError = 134070
public let NSPersistentStoreOpenError = 134080
public let NSPersistentStoreTimeoutError = 134090
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
public let NSPersistentStoreIncompatibleVersionHashError = 134100
public let NSMigrationError = 134110
public let NSMigrationConstraintViolationError = 134111
public let NSMigrationCancelledError = 134120
public let NSMigrationMissingSourceModelError = 134130
public let NSMigrationMissingMappingModelError = 134140
public let NSMigrationManagerSourceStoreError = 134150
public let NSMigrationManagerDestinationStoreError = 134160
public let NSEntityMigrationPolicyError = 134170
public let NSSQLiteError = 134180
public let NSInferredMappingModelError = 134190
public let NSExternalRecordImportError = 134200
public let NSPersistentHistoryTokenExpiredError = 134301
public let NSManagedObjectModelReferenceNotFoundError = 134504

// userInfo keys, with the raw strings Core Data uses (observed in device logs).
public let NSDetailedErrorsKey = "NSDetailedErrors"
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
public let NSValidationValueErrorKey = "NSValidationErrorValue"
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
public let NSPersistentStoreSaveConflictsErrorKey = "NSPersistentStoreSaveConflictsErrorKey"
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
