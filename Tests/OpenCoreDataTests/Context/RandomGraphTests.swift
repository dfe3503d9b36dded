import Testing
@testable import OpenCoreDataCore

/// Thousands of random inserts, relationship edits and deletes with saves
/// and rollbacks at random points, from a fixed seed. After every save every
/// inverse agrees, no deleted object is reachable, and the store holds
/// exactly the context's graph; after every rollback the context is back to
/// the last saved graph.
@Suite struct RandomGraphTests {

    /// Node: parent ⟷ children (Cascade: subtrees, chains and cycles), friends ⟷ friends
    /// (reflexive many-to-many), partner ⟷ partner (reflexive one-to-one), items ⟷ owner
    /// (ordered, Cascade).
    static func model() -> NSManagedObjectModel {
        let node = NSEntityDescription(name: "Node"), item = NSEntityDescription(name: "Item")
        let parent = TestStack.relationship("parent", to: node)
        let children = TestStack.relationship("children", to: node, toMany: true, rule: .cascadeDeleteRule)
        TestStack.pair(parent, children)
        let friends = TestStack.relationship("friends", to: node, toMany: true)
        friends.inverseRelationship = friends
        let partner = TestStack.relationship("partner", to: node)
        partner.inverseRelationship = partner
        let items = TestStack.relationship("items", to: item, toMany: true, rule: .cascadeDeleteRule, ordered: true)
        let owner = TestStack.relationship("owner", to: node)
        TestStack.pair(items, owner)
        node.properties = [TestStack.attribute("tag", .integer64AttributeType), parent, children, friends, partner, items]
        item.properties = [TestStack.attribute("tag", .integer64AttributeType), owner]
        let model = NSManagedObjectModel()
        model.entities = [node, item]
        return model
    }

    typealias Graph = [Int64: [String: [Int64]]]

    /// Every object of `context` (pending changes included) as tag → relationship → tags.
    static func graph(of context: NSManagedObjectContext) throws -> Graph {
        let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Node"))
            + context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
        var graph: Graph = [:]
        for object in objects {
            var links: [String: [Int64]] = [:]
            for (name, relationship) in object.entity.relationshipsByName {
                let tags = DeleteRuleMatrixTests.linked(object, name).map { $0.value(forKey: "tag") as! Int64 }
                links[name] = relationship.isOrdered ? tags : tags.sorted()
            }
            graph[object.value(forKey: "tag") as! Int64] = links
        }
        return graph
    }

    static func checkInvariants(_ context: NSManagedObjectContext) throws {
        let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Node"))
            + context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
        for object in objects {
            #expect(!object.isDeleted && object.managedObjectContext === context)
            for (name, relationship) in object.entity.relationshipsByName {
                for destination in DeleteRuleMatrixTests.linked(object, name) {
                    #expect(!destination.isDeleted && destination.managedObjectContext === context,
                            "deleted object reachable through \(name)")
                    let inverse = relationship.inverseRelationship!.name
                    #expect(DeleteRuleMatrixTests.linked(destination, inverse).contains { $0 === object },
                            "\(name) and its inverse \(inverse) disagree")
                }
            }
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func randomEditsSavesAndRollbacks(kind: TestStack.StoreKind) throws {
        var random = SeededGenerator(seed: 20_260_421)
        let context = try TestStack.context(Self.model(), kind)
        var nextTag: Int64 = 0
        var saved: Graph = [:]
        var saves = 0, rollbacks = 0
        func live(_ entity: String) -> [NSManagedObject] {
            context.registeredObjects.filter { $0.entity.name == entity && !$0.isDeleted && !$0.isFault }
                .sorted { ($0.value(forKey: "tag") as! Int64) < ($1.value(forKey: "tag") as! Int64) }
        }
        for _ in 0..<3000 {
            let nodes = live("Node"), items = live("Item")
            let roll = Int.random(in: 0..<100, using: &random)
            func anyNode() -> NSManagedObject? { nodes.randomElement(using: &random) }
            switch roll {
            case 0..<18:
                nextTag += 1
                let node = TestStack.insert("Node", into: context, ["tag": nextTag])
                if let parent = anyNode(), Bool.random(using: &random) { node.setValue(parent, forKey: "parent") }
            case 18..<28:
                guard let owner = anyNode() else { continue }
                nextTag += 1
                let item = TestStack.insert("Item", into: context, ["tag": nextTag])
                owner.mutableOrderedSetValue(forKey: "items").insert(item, at: Int.random(in: 0...owner.mutableOrderedSetValue(forKey: "items").count, using: &random))
            case 28..<40:
                guard let node = anyNode() else { continue }
                node.setValue(Bool.random(using: &random) ? anyNode() : nil, forKey: "parent")
            case 40..<52:
                guard let a = anyNode(), let b = anyNode() else { continue }
                let friends = a.mutableSetValue(forKey: "friends")
                if friends.contains(b) { friends.remove(b) } else { friends.add(b) }
            case 52..<60:
                guard let a = anyNode() else { continue }
                a.setValue(Bool.random(using: &random) ? anyNode() : nil, forKey: "partner")
            case 60..<68:
                guard let item = items.randomElement(using: &random) else { continue }
                item.setValue(Bool.random(using: &random) ? anyNode() : nil, forKey: "owner")
            case 68..<76:
                guard let victim = (Bool.random(using: &random) ? anyNode() : items.randomElement(using: &random)) else { continue }
                context.delete(victim)
            case 76..<90:
                context.processPendingChanges()
            case 90..<96:
                try context.save()
                saves += 1
                try Self.checkInvariants(context)
                saved = try Self.graph(of: context)
                let reader = try TestStack.reader(of: context)
                #expect(try Self.graph(of: reader) == saved, "the store holds the context's graph")
            default:
                context.rollback()
                rollbacks += 1
                #expect(!context.hasChanges)
                #expect(try Self.graph(of: context) == saved, "rollback restores the last saved graph")
                try Self.checkInvariants(context)
            }
        }
        #expect(saves > 50 && rollbacks > 20)
        #expect(nextTag > 500)
    }
}
