/// Something a fetch can select: a store's record or a context's object,
/// read through key-value coding.
protocol FetchCandidate: EntityKeyValueCoding {
    /// The entity of the candidate's object.
    var candidateEntity: NSEntityDescription { get }
}

extension FetchCandidate {
    /// Key paths read a candidate's keys as its entity's properties (an unknown one is an evaluation error).
    var keyValueEntity: NSEntityDescription { candidateEntity }
}

/// The one place where a fetch request's selection rules are applied, by
/// stores to their records and by contexts to unsaved objects alike.
enum FetchEvaluation {
    /// The candidates `request` selects, in its order, after `fetchOffset` and
    /// `fetchLimit` when `appliesWindow`. Candidates must already be of the
    /// request's entity or (with `includesSubentities`) its sub-entities.
    ///
    /// Costs one predicate evaluation per candidate and an n log n sort.
    /// Throws NSCoreDataError when the predicate can't be evaluated (a
    /// function Linux can't call, a type that does not compare).
    static func filterAndSort<C: FetchCandidate>(_ candidates: [C], request: NSFetchRequest<NSFetchRequestResult>,
                                                 appliesWindow: Bool) throws -> [C] {
        var selected = candidates
        if let predicate = request.predicate {
            do {
                selected = try selected.filter { candidate throws(PredicateEvaluationError) in
                    try predicate.evaluateThrowing(with: candidate)
                }
            } catch {
                throw NSError.coreData(NSCoreDataError, "The fetch request's predicate '\(predicate.predicateFormat)' can't be evaluated: \(error)")
            }
        }
        if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
            selected = selected.sorted(using: descriptors)
        }
        guard appliesWindow else { return selected }
        return window(selected, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    static func window<C>(_ items: [C], offset: Int, limit: Int) -> [C] {
        let start = min(max(offset, 0), items.count)
        let end = limit > 0 ? min(start + limit, items.count) : items.count
        return Array(items[start..<end])
    }
}
