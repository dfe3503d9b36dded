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

    /// `returnsObjectsAsFaults = false` returns no fault however the objects
    /// came: made by the fetch, registered as faults before it (loaded from
    /// the rows it read), merged in unsaved, or fetched by a child context
    /// from its parent. The fetch skips its pass that loads leftover faults
    /// only when it loaded every object as it made it.
    @Test(arguments: TestStack.StoreKind.allCases)
    func objectsAsNonFaultsComeLoadedEveryWay(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait {
            for index in 0..<6 { TestStack.insert("Person", into: context, ["name": "p\(index)"]) }
            try context.save()
        }
        let reader = try TestStack.reader(of: context)
        let loaded = NSFetchRequest<NSManagedObject>(entityName: "Person")
        loaded.returnsObjectsAsFaults = false
        loaded.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        try reader.performAndWait {
            let faults = NSFetchRequest<NSManagedObject>(entityName: "Person")
            faults.includesPropertyValues = false
            let held = try reader.fetch(faults)
            #expect(held.count == 6 && held.allSatisfy(\.isFault))
            let fetched = try reader.fetch(loaded)
            #expect(fetched.allSatisfy { !$0.isFault } && fetched.count == 6)
            #expect(fetched.map { $0.primitiveValue(forKey: "name") as? String } == (0..<6).map { "p\($0)" })
            TestStack.insert("Person", into: reader, ["name": "p9"])
            held[0].setValue("p0b", forKey: "name")
            reader.refresh(held[1], mergeChanges: false)
            #expect(held[1].isFault)
            let merged = try reader.fetch(loaded)
            #expect(merged.count == 7 && merged.allSatisfy { !$0.isFault })
            #expect(merged.map { $0.primitiveValue(forKey: "name") as? String }.last == "p9")
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = reader
        try child.performAndWait {
            let fetched = try child.fetch(loaded)
            #expect(fetched.count == 7 && fetched.allSatisfy { !$0.isFault })
        }
    }
}
