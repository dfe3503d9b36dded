/// Something a fetch can select: a store's record or a context's object,
/// read through key-value coding.
protocol FetchCandidate: KeyValueCoding {
    /// The entity of the candidate's object.
    var candidateEntity: NSEntityDescription { get }
}

/// The one place where a fetch request's selection rules are applied, by
/// stores to their records and by contexts to unsaved objects alike.
enum FetchEvaluation {
    /// The candidates `request` selects, in its order, after `fetchOffset` and
    /// `fetchLimit` when `appliesWindow`. Candidates must already be of the
    /// request's entity or (with `includesSubentities`) its sub-entities.
    ///
    /// Predicate filtering and sort descriptors plug in here, between the
    /// entity check and the window. Costs one pass over the candidates.
    static func filterAndSort<C: FetchCandidate>(_ candidates: [C], request: NSFetchRequest<NSFetchRequestResult>,
                                                 appliesWindow: Bool) -> [C] {
        let selected = candidates
        guard appliesWindow else { return selected }
        return window(selected, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    static func window<C>(_ items: [C], offset: Int, limit: Int) -> [C] {
        let start = min(max(offset, 0), items.count)
        let end = limit > 0 ? min(start + limit, items.count) : items.count
        return Array(items[start..<end])
    }
}
