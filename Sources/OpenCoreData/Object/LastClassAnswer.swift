/// A question about objects' classes (`ClassOverrides`), answered once per
/// run of objects of one class: a save's and a cascade's objects come in runs
/// of one class, and each answer reads words of the class's metadata (~45–90
/// instructions an object). The answer is kept for the last class asked about.
struct LastClassAnswer {
    private let question: (NSManagedObject.Type) -> Bool
    private var lastClass: ObjectIdentifier?, answer = true

    /// `question`'s answers, asked again only when the class changes.
    init(_ question: @escaping (NSManagedObject.Type) -> Bool) { self.question = question }

    /// `question`'s answer for the class of `object`.
    mutating func callAsFunction(_ object: NSManagedObject) -> Bool {
        let objectClass = ObjectIdentifier(type(of: object))
        if objectClass != lastClass {
            lastClass = objectClass
            answer = question(type(of: object))
        }
        return answer
    }
}
