#if !canImport(Darwin)
import Foundation

/// Records changes as groups of actions that undo them, and undoes and redoes them a group at a time (Foundation's
/// UndoManager, which Foundation on Linux does not have; Apple's names and behaviour).
///
/// Actions registered while undoing go to the redo stack, while redoing to the undo stack; any other registration
/// clears the redo stack. With `groupsByEvent` (the default) a registration outside any group opens one, which
/// `undo()` closes (Apple closes it at the end of the run loop's turn; a managed object context closes its own
/// group at the end of each event). Costs one closure per registered action; `levelsOfUndo` bounds the groups kept.
open class UndoManager: NSObject, @unchecked Sendable {
    private enum Item {
        /// The target is held weakly, as Foundation's undo manager does not retain targets.
        case action(target: WeakTarget, run: (AnyObject) -> Void)
        case group(UndoGroup)
    }

    private struct WeakTarget {
        weak var object: AnyObject?
    }

    private final class UndoGroup {
        var items: [Item] = []
        var actionName = ""
        var isDiscardable = false
    }

    private var undoStack: [UndoGroup] = []
    private var redoStack: [UndoGroup] = []
    private var openGroups: [UndoGroup] = []
    private var disabledCount = 0

    /// Whether a registration outside any group opens one (true by default).
    open var groupsByEvent = true
    /// How many top-level groups are kept; 0 (the default) keeps all.
    open var levelsOfUndo = 0 {
        didSet { trim(&undoStack); trim(&redoStack) }
    }
    /// Whether `undo()` or `undoNestedGroup()` is running.
    open private(set) var isUndoing = false
    /// Whether `redo()` is running.
    open private(set) var isRedoing = false

    /// An undo manager with nothing recorded, ``groupsByEvent`` on and no limit on the groups kept.
    public override init() {}

    /// How many groups are open.
    open var groupingLevel: Int { openGroups.count }
    /// Whether registrations are recorded (see `disableUndoRegistration()`).
    open var isUndoRegistrationEnabled: Bool { disabledCount == 0 }
    /// Whether there is a group to undo (an open top-level group counts once it holds an action).
    open var canUndo: Bool {
        !undoStack.isEmpty || (!isUndoing && !isRedoing && openGroups.first.map { !$0.items.isEmpty } == true)
    }
    /// Whether there is a group to redo.
    open var canRedo: Bool { !redoStack.isEmpty }

    /// Opens a group; groups nest, and a nested group undoes as one action of its parent.
    open func beginUndoGrouping() {
        openGroups.append(UndoGroup())
        NotificationCenter.default.post(name: .NSUndoManagerDidOpenUndoGroup, object: self)
    }

    /// Closes the innermost open group; a top-level group holding actions becomes the next to undo (or, while
    /// undoing, to redo). Does nothing when no group is open.
    open func endUndoGrouping() {
        guard let group = openGroups.last else { return }
        NotificationCenter.default.post(name: .NSUndoManagerWillCloseUndoGroup, object: self)
        openGroups.removeLast()
        if let parent = openGroups.last {
            if !group.items.isEmpty { parent.items.append(.group(group)) }
        } else if !group.items.isEmpty {
            if isUndoing {
                redoStack.append(group)
                trim(&redoStack)
            } else {
                undoStack.append(group)
                trim(&undoStack)
            }
        }
        NotificationCenter.default.post(name: .NSUndoManagerDidCloseUndoGroup, object: self)
    }

    /// Stops recording registrations until as many `enableUndoRegistration()` calls.
    open func disableUndoRegistration() { disabledCount += 1 }
    /// Ends one `disableUndoRegistration()`.
    open func enableUndoRegistration() { disabledCount = max(0, disabledCount - 1) }

    /// Records `handler`, called with `target` to undo a change. While undoing, it is what redoes the change.
    open func registerUndo<TargetType: AnyObject>(withTarget target: TargetType,
                                                  handler: @escaping (TargetType) -> Void) {
        register(target) { handler($0 as! TargetType) }
    }

    private func register(_ target: AnyObject, _ run: @escaping (AnyObject) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty { beginUndoGrouping() }
        if !isUndoing && !isRedoing { redoStack.removeAll() }
        openGroups[openGroups.count - 1].items.append(.action(target: WeakTarget(object: target), run: run))
    }

    /// Closes an open top-level group (with `groupsByEvent`) and undoes the last group.
    open func undo() {
        if groupsByEvent && openGroups.count == 1 { endUndoGrouping() }
        guard openGroups.isEmpty else { return }
        undoNestedGroup()
    }

    /// Undoes the last closed group, recording what it registers as the group to redo.
    open func undoNestedGroup() {
        guard let group = undoStack.popLast() else { return }
        NotificationCenter.default.post(name: .NSUndoManagerCheckpoint, object: self)
        NotificationCenter.default.post(name: .NSUndoManagerWillUndoChange, object: self)
        isUndoing = true
        run(group, into: &redoStack)
        isUndoing = false
        NotificationCenter.default.post(name: .NSUndoManagerDidUndoChange, object: self)
    }

    /// Redoes the last undone group, recording what it registers as the group to undo.
    open func redo() {
        guard openGroups.isEmpty, let group = redoStack.popLast() else { return }
        NotificationCenter.default.post(name: .NSUndoManagerCheckpoint, object: self)
        NotificationCenter.default.post(name: .NSUndoManagerWillRedoChange, object: self)
        isRedoing = true
        run(group, into: &undoStack)
        isRedoing = false
        NotificationCenter.default.post(name: .NSUndoManagerDidRedoChange, object: self)
    }

    /// Runs `group`'s actions last first inside a group of their own, named as `group`, which lands on `stack`.
    private func run(_ group: UndoGroup, into stack: inout [UndoGroup]) {
        let replay = UndoGroup()
        replay.actionName = group.actionName
        openGroups.append(replay)
        perform(group)
        openGroups.removeLast()
        if !replay.items.isEmpty {
            stack.append(replay)
            trim(&stack)
        }
    }

    private func perform(_ group: UndoGroup) {
        for item in group.items.reversed() {
            switch item {
            case .action(let target, let run): if let object = target.object { run(object) }
            case .group(let nested): perform(nested)
            }
        }
    }

    /// Forgets every group to undo and redo.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.forEach { $0.items.removeAll() }
    }

    /// Forgets the actions registered with `target` (and those whose target is gone), and the groups left empty.
    open func removeAllActions(withTarget target: Any) {
        let object = target as AnyObject
        func prune(_ group: UndoGroup) -> Bool {
            group.items = group.items.filter { item in
                switch item {
                case .action(let owner, _): return owner.object != nil && owner.object !== object
                case .group(let nested): return prune(nested)
                }
            }
            return !group.items.isEmpty
        }
        undoStack = undoStack.filter(prune)
        redoStack = redoStack.filter(prune)
        openGroups.forEach { _ = prune($0) }
    }

    /// The name of the group `undo()` would undo; empty when unnamed.
    open var undoActionName: String { undoStack.last?.actionName ?? openGroups.first?.actionName ?? "" }
    /// The name of the group `redo()` would redo.
    open var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// Names the group being recorded (the one open, or while undoing the one to redo).
    open func setActionName(_ actionName: String) {
        (openGroups.first ?? undoStack.last)?.actionName = actionName
    }

    /// Whether the last group to undo was marked discardable.
    open var undoActionIsDiscardable: Bool { undoStack.last?.isDiscardable ?? false }
    /// Whether the last group to redo was marked discardable.
    open var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }
    /// Marks the group being recorded as discardable (a change that need not keep a document dirty).
    open func setActionIsDiscardable(_ discardable: Bool) {
        (openGroups.first ?? undoStack.last)?.isDiscardable = discardable
    }

    /// "Undo" followed by the action's name, for a menu.
    open var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }
    /// "Redo" followed by the action's name, for a menu.
    open var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }
    /// "Undo" and `actionName`.
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }
    /// "Redo" and `actionName`.
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    private func trim(_ stack: inout [UndoGroup]) {
        if levelsOfUndo > 0 && stack.count > levelsOfUndo { stack.removeFirst(stack.count - levelsOfUndo) }
    }
}

extension Notification.Name {
    /// Posted before an undo manager undoes or redoes a group.
    public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
    /// Posted before an undo manager undoes a group.
    public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted after an undo manager undid a group.
    public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted before an undo manager redoes a group.
    public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted after an undo manager redid a group.
    public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
    /// Posted when an undo manager opens a group.
    public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted before an undo manager closes a group.
    public static let NSUndoManagerWillCloseUndoGroup =
        Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted after an undo manager closed a group.
    public static let NSUndoManagerDidCloseUndoGroup =
        Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}
#endif
