import Foundation
import Testing
@testable import OpenCoreDataCore

/// A person whose `awakeFromFetch()` reads its friend's name: the friend is
/// often another object of the same fetch, which a fetch loading its objects
/// one at a time has not made or loaded yet when this one wakes.
final class FetchWakingPerson: NSManagedObject {
    nonisolated(unsafe) static var woken: [String] = []

    override func awakeFromFetch() {
        super.awakeFromFetch()
        let name = value(forKey: "name") as? String ?? "?"
        let friend = (value(forKey: "friend") as? NSManagedObject)?.value(forKey: "name") as? String ?? "-"
        Self.woken.append("\(name)->\(friend)")
    }
}

/// A fetch that loads its objects (`returnsObjectsAsFaults = false`) gives
/// each its row as it makes it. Apple: `awakeFromFetch()` is "invoked
/// automatically by the Core Data framework after the receiver has been
/// fetched", once per fault fulfilled, and may touch other objects
/// (https://developer.apple.com/documentation/coredata/nsmanagedobject/awakefromfetch()).
@Suite(.serialized) struct FetchLoadingOrderTests {
    static func model() -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person", className: "OpenCoreDataTests.FetchWakingPerson")
        let friend = TestStack.relationship("friend", to: person)
        let friendOf = TestStack.relationship("friendOf", to: person, toMany: true)
        TestStack.pair(friend, friendOf)
        person.properties = [TestStack.attribute("name", .stringAttributeType), friend, friendOf]
        let model = NSManagedObjectModel()
        model.entities = [person]
        return model
    }

    /// Five people in a ring, p0's friend p1 … p4's friend p0, fetched in
    /// order by another context: each wakes once, with its values, and finds
    /// its friend, a later object of the same fetch for all but p4, loaded
    /// and uniqued with the fetched object.
    @Test(arguments: TestStack.StoreKind.allCases)
    func anObjectWakingReadsALaterObjectOfItsFetch(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait {
            let people = (0..<5).map { TestStack.insert("Person", into: context, ["name": "p\($0)"]) }
            for (index, person) in people.enumerated() {
                person.setValue(people[(index + 1) % people.count], forKey: "friend")
            }
            try context.save()
        }
        let reader = try TestStack.reader(of: context)
        FetchWakingPerson.woken = []
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.returnsObjectsAsFaults = false
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let fetched = try reader.fetch(request)
            #expect(fetched.map { $0.value(forKey: "name") as? String } == ["p0", "p1", "p2", "p3", "p4"])
            #expect(fetched.allSatisfy { !$0.isFault && $0 is FetchWakingPerson })
            for (index, person) in fetched.enumerated() {
                #expect(person.value(forKey: "friend") as? NSManagedObject === fetched[(index + 1) % fetched.count])
            }
            #expect(reader.registeredObjects.count == 5)
        }
        #expect(FetchWakingPerson.woken.sorted() == ["p0->p1", "p1->p2", "p2->p3", "p3->p4", "p4->p0"])
    }
}
