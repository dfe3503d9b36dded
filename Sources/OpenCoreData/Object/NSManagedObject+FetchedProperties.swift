// Fetched properties: "evaluated lazily, and subsequently cached. If objects
// in the destination entity are changed, you must reevaluate the fetched
// property to ensure it is up-to-date. You use refreshObject:mergeChanges:
// to manually refresh the properties—this causes the fetch request
// associated with this property to be executed again when the object fault
// is next fired." (Core Data Programming Guide, "Fetched Properties")

extension NSManagedObject {
    /// The results of the fetched property in `slot`: its request run in the
    /// object's context at first use, `$FETCH_SOURCE` standing for the
    /// object and `$FETCHED_PROPERTY` for the property, then kept in the slot
    /// until the object is refreshed or turned into a fault. An array, as on
    /// Apple; empty without a context or when the fetch fails.
    func fetchedValue(_ property: NSFetchedPropertyDescription, slot: Int) -> Any? {
        if case .value(let cached) = values[slot] { return cached.value }
        guard let context = managedObjectContext, let request = property.fetchRequest else {
            return [NSManagedObject]()
        }
        let variables: [String: Any] = ["FETCH_SOURCE": self, "FETCHED_PROPERTY": property]
        request.predicate = request.predicate?.withSubstitutionVariables(variables)
        let results: [Any] = ((try? context.fetch(request)) ?? []).map { $0 as Any }
        values.resolve(slot, to: .boxed(results))
        return results
    }
}
