/// What a managed object keeps only once it takes part in changes: its
/// values at the start of the current event, the context's marks for it
/// (events and lists that recorded it, whether it is inserted, updated or
/// deleted) and its temporary ID's number. An
/// object that is only read (a fetched object, a fault) never makes one, so
/// it is 80 bytes smaller (112 instead of 192 with the allocator's rounding);
/// an object that changes pays one allocation. The state stays within 120
/// bytes, so that glibc keeps its freed blocks in a fast bin: at 140 bytes a
/// context's teardown spent ~315 instructions freeing each, at 116 ~160.
///
/// Each field reads as its "never set" value while there is no state
/// (`NSManagedObject`'s forwarding properties), and setting that value
/// makes none.
final class ObjectChangeState {
    // Read on every change; release builds skip the exclusivity checks, as
    // for the object's own values.
    #if DEBUG
    var eventBaseline: SlotValues?
    var insertedInEvent = 0, changedInEvent = 0, updatedInEvent = 0
    var listMarks = ContextListMarks()
    var valuesStamp = 0
    #else
    @exclusivity(unchecked) var eventBaseline: SlotValues?
    @exclusivity(unchecked) var insertedInEvent = 0, changedInEvent = 0, updatedInEvent = 0
    @exclusivity(unchecked) var listMarks = ContextListMarks()
    @exclusivity(unchecked) var valuesStamp = 0
    #endif
    var childValidatedStamp = -1
    /// The permanent ID a save being planned gives the object (`SavePlan`).
    var plannedPermanentID: NSManagedObjectID?
    var temporaryNumber: Int?
    /// Whether the context lists the object as inserted, updated, deleted,
    /// or reads it as deleted since its record vanished
    /// (`NSManagedObject.isInsertedFlag` and the others).
    var isInserted = false, isUpdated = false, isDeleted = false, isInaccessible = false
}
