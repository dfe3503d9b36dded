/// The rule that a model is editable only until a coordinator first uses it.
///
/// Core Data raises an exception when a model is changed after a persistent
/// store coordinator has started using it (NSManagedObjectModel.h); OpenCoreData
/// stops the program with the same message, because a model that changes under
/// a running stack would corrupt every cache built on it.
protocol ModelEditing: AnyObject {
    /// The model this description belongs to, if any.
    var owningModel: NSManagedObjectModel? { get }
}

extension ModelEditing {
    func ensureEditable(_ what: @autoclosure () -> String) {
        guard let model = owningModel, !model.isEditable else { return }
        preconditionFailure("Can't modify an immutable model: \(what()) was changed after a persistent store coordinator started using the model. Build the model completely before creating the coordinator.")
    }
}
