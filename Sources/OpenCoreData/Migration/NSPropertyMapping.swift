/// How one destination property gets its value in a migration (Apple's
/// NSPropertyMapping): the destination property's `name` and the
/// `valueExpression` that computes it from the source instance (`$source`)
/// and the migration manager (`$manager`).
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    /// The destination property's name.
    open var name: String?
    /// The expression giving the value; nil leaves the destination's default.
    open var valueExpression: NSExpression?
    /// Application data kept with the mapping.
    open var userInfo: [AnyHashable: Any]?

    /// The source property the value comes from, when the mapping was
    /// inferred and copies one; what the in-place SQLite migration reads.
    var sourcePropertyName: String?

    /// An empty property mapping.
    public override init() { super.init() }

    init(name: String, sourcePropertyName: String?, valueExpression: NSExpression?) {
        self.name = name
        self.sourcePropertyName = sourcePropertyName
        self.valueExpression = valueExpression
        super.init()
    }

    /// The destination property and its value expression, for logs.
    open override var description: String {
        "<NSPropertyMapping \(name ?? "nil") = \(valueExpression.map { "\($0)" } ?? "default")>"
    }
}
