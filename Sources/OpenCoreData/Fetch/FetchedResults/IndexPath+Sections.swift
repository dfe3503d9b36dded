// Linux's Foundation has IndexPath but not UIKit's and AppKit's section/row
// accessors, which every fetched-results client uses.

extension IndexPath {
    /// The index path of `item` in `section`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The index path of `row` in `section` (UITableView's spelling).
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The first index: the section.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second index: the item within the section.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second index: the row within the section (UITableView's spelling of `item`).
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
