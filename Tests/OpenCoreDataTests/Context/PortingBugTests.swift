import Foundation
import Testing
@testable import OpenCoreDataCore

/// Classes of their own: ManagedObjectTests counts the events of its Album and Photo.
final class PortedAlbum: NSManagedObject {
    @Managed var name: String?
    @Managed var sheets: Int32
    @Managed var photos: NSSet?
}

final class PortedPhoto: NSManagedObject {
    @Managed var name: String?
    @Managed var index: Int16
    @Managed var album: PortedAlbum?
}

/// Bugs found by porting existing Core Data code (issue 18): each test is
/// code written for Apple's Core Data that stopped the program or behaved
/// differently here.
@Suite struct PortingBugTests {
    /// Thing: one attribute of each number type, all required.
    static func numbersModel() -> NSManagedObjectModel {
        let thing = NSEntityDescription(name: "Thing")
        thing.properties = [
            TestStack.attribute("i16", .integer16AttributeType), TestStack.attribute("i32", .integer32AttributeType),
            TestStack.attribute("i64", .integer64AttributeType), TestStack.attribute("double", .doubleAttributeType),
            TestStack.attribute("float", .floatAttributeType), TestStack.attribute("decimal", .decimalAttributeType),
            TestStack.attribute("flag", .booleanAttributeType),
        ]
        let model = NSManagedObjectModel()
        model.entities = [thing]
        return model
    }

    // MARK: NSNumber values

    /// Apple's attribute setters take any NSNumber for a number attribute
    /// (NSAttributeDescription: "attributeValueClassName" is NSNumber for the
    /// integer, float and Boolean types), whatever number it holds. On Linux
    /// `NSNumber(value: 1.0) is Bool` is true, which made 0 and 1 stop the program.
    @Test(arguments: TestStack.StoreKind.allCases)
    func numberAttributesTakeAnyNSNumber(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.numbersModel(), kind)
        try context.performAndWait { () throws in
            let numbers: [NSNumber] = [NSNumber(value: 1.0), NSNumber(value: 0), NSNumber(value: true),
                                       NSNumber(value: false), NSNumber(value: Int16(1)), NSNumber(value: 1 as Float)]
            for number in numbers {
                let thing = TestStack.insert("Thing", into: context)
                for key in ["i16", "i32", "i64", "double", "float", "decimal", "flag"] {
                    thing.setValue(number, forKey: key)
                }
                let expected = number.intValue
                #expect(thing.value(forKey: "i16") as? Int16 == Int16(expected))
                #expect(thing.value(forKey: "i32") as? Int32 == Int32(expected))
                #expect(thing.value(forKey: "i64") as? Int64 == Int64(expected))
                #expect(thing.value(forKey: "double") as? Double == Double(expected))
                #expect(thing.value(forKey: "float") as? Float == Float(expected))
                #expect(thing.value(forKey: "decimal") as? Decimal == Decimal(expected))
                #expect(thing.value(forKey: "flag") as? Bool == (expected != 0))
            }
            let other = TestStack.insert("Thing", into: context)
            other.setValue(NSNumber(value: 2.75), forKey: "i32") // cut toward zero, as NSNumber.int32Value reads it
            other.setValue(NSNumber(value: 2.75), forKey: "decimal")
            other.setValue(NSNumber(value: Int64.max), forKey: "i64")
            other.setValue(NSNumber(value: 7), forKey: "flag")
            other.setValue(NSNumber(value: 2.5), forKey: "float")
            #expect(other.value(forKey: "i32") as? Int32 == 2)
            #expect(other.value(forKey: "decimal") as? Decimal == Decimal(string: "2.75"))
            #expect(other.value(forKey: "i64") as? Int64 == .max)
            #expect(other.value(forKey: "flag") as? Bool == true)
            #expect(other.value(forKey: "float") as? Float == 2.5)
            try context.save()
            let reader = try TestStack.reader(of: context)
            try reader.performAndWait { () throws in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Thing")
                request.predicate = NSPredicate(format: "i32 == 2")
                let read = try #require(try reader.fetch(request).first)
                #expect(read.value(forKey: "i64") as? Int64 == .max)
                #expect(read.value(forKey: "float") as? Float == 2.5)
            }
        }
    }

    // MARK: Requests are not changed by the APIs they are given to

    /// Every setting of a fetch request, to see that an API left it alone.
    static func settings(_ request: NSFetchRequest<NSFetchRequestResult>) -> String {
        "\(request.entityName ?? "") \(request.resultType.rawValue) \(request.fetchLimit) \(request.fetchOffset) "
            + "\(request.fetchBatchSize) \(request.includesSubentities) \(request.includesPendingChanges) "
            + "\(request.returnsObjectsAsFaults) \(request.includesPropertyValues) \(request.returnsDistinctResults) "
            + "\(request.shouldRefreshRefetchedObjects) \(request.predicate?.predicateFormat ?? "-") "
            + "\(request.sortDescriptors?.map { "\($0.key ?? "") \($0.ascending)" } ?? []) "
            + "\(request.relationshipKeyPathsForPrefetching ?? []) \(request.affectedStores?.count ?? -1)"
    }

    /// `count(for:)` of an `NSFetchRequest<NSFetchRequestResult>` made the
    /// caller's next fetch return object IDs. Apple's fetch, count, fetched
    /// results controller and batch update take the request as input only.
    @Test(arguments: TestStack.StoreKind.allCases)
    func requestsAreNotChangedByTheirUse(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            for i in 0..<3 { TestStack.insert("Album", into: context, ["name": "a\(i)", "sheets": i]) }
            try context.save()
            TestStack.insert("Album", into: context, ["name": "unsaved"])
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Album")
            request.predicate = NSPredicate(format: "sheets >= 0")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.fetchBatchSize = 2
            let before = Self.settings(request)

            #expect(try context.count(for: request) == 3)
            #expect(Self.settings(request) == before)
            #expect(try context.fetch(request).allSatisfy { $0 is NSManagedObject })
            #expect(Self.settings(request) == before)
            _ = try context.fetchBatched(request)
            #expect(Self.settings(request) == before)

            let typed = NSFetchRequest<NSManagedObject>(entityName: "Album")
            #expect(try context.count(for: typed) == 4) // the unsaved one counts, as includesPendingChanges says
            #expect(typed.resultType == .managedObjectResultType)

            let counting = request.copy() as! NSFetchRequest<NSFetchRequestResult>
            counting.resultType = .countResultType
            let countingBefore = Self.settings(counting)
            #expect((try context.fetch(counting).first as? NSNumber)?.intValue == 3)
            #expect(Self.settings(counting) == countingBefore)

            let dictionaries = request.copy() as! NSFetchRequest<NSFetchRequestResult>
            dictionaries.resultType = .dictionaryResultType
            dictionaries.fetchLimit = 1
            let dictionariesBefore = Self.settings(dictionaries)
            #expect(try context.fetch(dictionaries).count == 1)
            #expect(Self.settings(dictionaries) == dictionariesBefore)

            let ids = request.copy() as! NSFetchRequest<NSFetchRequestResult>
            ids.resultType = .managedObjectIDResultType
            let idsBefore = Self.settings(ids)
            #expect(try context.fetch(ids).allSatisfy { $0 is NSManagedObjectID })
            #expect(try context.count(for: ids) == 3)
            #expect(Self.settings(ids) == idsBefore)

            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            #expect(Self.settings(request) == before)
            #expect(controller.fetchedObjects?.count == 3)

            let update = NSBatchUpdateRequest(entityName: "Album")
            update.predicate = NSPredicate(format: "sheets == 1")
            update.propertiesToUpdate = ["name": "one"]
            update.resultType = .updatedObjectsCountResultType
            let result = try context.execute(update) as? NSBatchUpdateResult
            #expect(result?.result as? Int == 1)
            #expect(update.entityName == "Album" && update.predicate?.predicateFormat == "sheets == 1")
            #expect(update.propertiesToUpdate?.count == 1 && update.resultType == .updatedObjectsCountResultType)
        }
    }

    // MARK: Default values in model files

    /// A model file as Xcode writes it, with default values as momc reads
    /// them: YES/NO (and true/false) for Booleans and for numbers (an
    /// attribute turned from Boolean into Integer keeps its "NO"), numbers
    /// with a decimal point for floats, dates as seconds since 2001.
    static let defaultsModelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" \
        systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" \
        userDefinedModelVersionIdentifier="">
            <entity name="Settings" representedClassName="Settings" syncable="YES" codeGenerationType="class">
                <attribute name="count" attributeType="Integer 16" defaultValueString="NO" \
                    usesScalarValueType="YES"/>
                <attribute name="enabled" attributeType="Integer 32" defaultValueString="YES" \
                    usesScalarValueType="YES"/>
                <attribute name="big" attributeType="Integer 64" defaultValueString="true" \
                    usesScalarValueType="YES"/>
                <attribute name="plain" attributeType="Integer 64" defaultValueString="42" \
                    usesScalarValueType="YES"/>
                <attribute name="hidden" attributeType="Boolean" defaultValueString="NO" \
                    usesScalarValueType="YES"/>
                <attribute name="shown" attributeType="Boolean" defaultValueString="YES" \
                    usesScalarValueType="YES"/>
                <attribute name="lowerTrue" attributeType="Boolean" defaultValueString="true" \
                    usesScalarValueType="YES"/>
                <attribute name="ratio" attributeType="Double" defaultValueString="0.5" \
                    usesScalarValueType="YES"/>
                <attribute name="scale" attributeType="Float" defaultValueString="2" \
                    usesScalarValueType="YES"/>
                <attribute name="price" attributeType="Decimal" defaultValueString="1.25"/>
                <attribute name="switchedOff" attributeType="Double" defaultValueString="NO" \
                    usesScalarValueType="YES"/>
                <attribute name="created" attributeType="Date" defaultDateTimeInterval="86400" \
                    usesScalarValueType="NO"/>
                <attribute name="title" attributeType="String" defaultValueString="NO"/>
            </entity>
        </model>
        """

    @Test func defaultValueStringsAreReadAsMomcReadsThem() throws {
        let model = try ModelXMLReader.read(data: Data(Self.defaultsModelXML.utf8))
        let attributes = try #require(model.entitiesByName["Settings"]).attributesByName
        func value(_ name: String) -> Any? { attributes[name]?.defaultValue }
        #expect(value("count") as? Int16 == 0)
        #expect(value("enabled") as? Int32 == 1)
        #expect(value("big") as? Int64 == 1)
        #expect(value("plain") as? Int64 == 42)
        #expect(value("hidden") as? Bool == false)
        #expect(value("shown") as? Bool == true)
        #expect(value("lowerTrue") as? Bool == true)
        #expect(value("ratio") as? Double == 0.5)
        #expect(value("scale") as? Float == 2)
        #expect(value("price") as? Decimal == Decimal(string: "1.25"))
        #expect(value("switchedOff") as? Double == 0)
        #expect(value("created") as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(value("title") as? String == "NO")

        // Every attribute is required: the save succeeds only with the defaults in place.
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let settings = TestStack.insert("Settings", into: context)
            #expect(settings.value(forKey: "count") as? Int16 == 0)
            #expect(settings.value(forKey: "shown") as? Bool == true)
            try context.save()
        }
    }

    // MARK: SQLite at /dev/null

    static func isCharacterDevice(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeCharacterSpecial
    }

    /// The files beside /dev/null named after it (SQLite's -journal, -wal, -shm), with their modification dates:
    /// opening the device as a database file would create or change them.
    static func devNullSiblings() -> [String: Date] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        var found: [String: Date] = [:]
        for name in names where name != "null" && (name.hasPrefix("null") || name.hasPrefix(".null")) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: "/dev/" + name)
            found[name] = attributes?[.modificationDate] as? Date ?? .distantPast
        }
        return found
    }

    /// `/dev/null` is where Apple's SQLite store keeps its database in
    /// memory (NSPersistentStoreDescription's default URL, used by test
    /// suites everywhere): it opens, saves and fetches, each store is a
    /// database of its own, and the device is never written or removed.
    @Test func sqliteStoreAtDevNullIsInMemory() throws {
        #expect(Self.isCharacterDevice("/dev/null"))
        let siblings = Self.devNullSiblings()
        let devNull = URL(fileURLWithPath: "/dev/null")
        let model = TestStack.albumsModel()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: devNull,
                                                       options: nil)
        #expect(store.type == NSSQLiteStoreType && store.url == devNull)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "memory"])
            for i in 0..<3 { TestStack.insert("Photo", into: context, ["name": "p\(i)", "album": album]) }
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "album.name == 'memory'")
            #expect(try context.fetch(request).count == 3)
        }
        // A second coordinator at /dev/null has a database of its own.
        let second = NSPersistentStoreCoordinator(managedObjectModel: model)
        try second.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: devNull, options: nil)
        let secondContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        secondContext.persistentStoreCoordinator = second
        try secondContext.performAndWait { () throws in
            #expect(try secondContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        }
        // Metadata of /dev/null is not read from (or written to) the device: there is no store file.
        #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: devNull)
        }
        #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.setMetadata(["k": "v"], forPersistentStoreOfType: NSSQLiteStoreType,
                                                         at: devNull)
        }
        #expect(Self.isCharacterDevice("/dev/null"))
        #expect(Self.devNullSiblings() == siblings)
    }

    /// The same through NSPersistentContainer, with `NSPersistentStoreDescription()`
    /// (whose URL is /dev/null) and with a description at /dev/null; large
    /// external-storage data stays in the database (there is no folder
    /// beside /dev/null to put it in).
    @Test func containersAtDevNullDoNotShareData() throws {
        let photo = NSEntityDescription(name: "Photo")
        let bytes = TestStack.attribute("bytes", .binaryDataAttributeType)
        bytes.allowsExternalBinaryDataStorage = true
        photo.properties = [TestStack.attribute("name", .stringAttributeType), bytes]
        let model = NSManagedObjectModel()
        model.entities = [photo]
        let siblings = Self.devNullSiblings()
        #expect(NSPersistentStoreDescription().url == URL(fileURLWithPath: "/dev/null"))
        #expect(NSPersistentStoreDescription().type == NSSQLiteStoreType)

        func container(_ description: NSPersistentStoreDescription) throws -> NSPersistentContainer {
            let container = NSPersistentContainer(name: "DevNull", managedObjectModel: model)
            container.persistentStoreDescriptions = [description]
            var failure: Error?
            container.loadPersistentStores { _, error in failure = error }
            if let failure { throw failure }
            return container
        }
        let first = try container(NSPersistentStoreDescription())
        let second = try container(NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
        let big = Data(repeating: 7, count: SQLiteExternalData.threshold * 2)
        try first.viewContext.performAndWait { () throws in
            TestStack.insert("Photo", into: first.viewContext, ["name": "first", "bytes": big])
            try first.viewContext.save()
            first.viewContext.reset()
            let fetched = try first.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            #expect(fetched.map { $0.value(forKey: "name") as? String } == ["first"])
            #expect(fetched.first?.value(forKey: "bytes") as? Data == big)
        }
        try second.viewContext.performAndWait { () throws in
            #expect(try second.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
            TestStack.insert("Photo", into: second.viewContext, ["name": "second"])
            try second.viewContext.save()
        }
        try first.viewContext.performAndWait { () throws in
            #expect(try first.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 1)
        }
        #expect(Self.isCharacterDevice("/dev/null"))
        #expect(Self.devNullSiblings() == siblings)
    }

    // MARK: Faults, refresh, primitive values

    /// NSManagedObjectContext.reset(): "All the receiver's managed objects are
    /// 'forgotten'… they will be invalid afterwards." An object kept across a
    /// reset has no context and reads nil (no stop), and the same record,
    /// asked for by its ID, comes back with its saved values through the coordinator.
    @Test(arguments: TestStack.StoreKind.allCases)
    func objectsKeptAcrossResetDoNotStopTheProgram(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "kept"])
            TestStack.insert("Photo", into: context, ["name": "p", "album": album])
            try context.save()
            context.reset()
            let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            let fault = try #require(fetched.first)
            let loaded = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")).first)
            _ = loaded.value(forKey: "name")
            let unsaved = TestStack.insert("Album", into: context, ["name": "unsaved"])
            let id = fault.objectID
            context.reset()
            #expect(fault.managedObjectContext == nil && loaded.managedObjectContext == nil)
            #expect(fault.value(forKey: "name") == nil)
            #expect((fault.value(forKey: "photos") as? NSSet)?.count ?? 0 == 0)
            #expect(loaded.value(forKey: "album") == nil)
            _ = unsaved.value(forKey: "name")
            let again = context.object(with: id)
            #expect(again !== fault)
            #expect(again.value(forKey: "name") as? String == "kept")
            #expect(TestStack.names(TestStack.set(again, "photos") ) == ["p"])
        }
    }

    /// refresh(_:mergeChanges:) turns objects into faults from their saved
    /// records; an inserted object has none, and keeps its values, stays
    /// inserted and saves.
    @Test(arguments: TestStack.StoreKind.allCases)
    func refreshingAnInsertedObjectKeepsIt(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "new"])
            context.refresh(album, mergeChanges: false)
            #expect(album.isInserted && !album.isFault && context.hasChanges)
            #expect(album.value(forKey: "name") as? String == "new")
            context.refresh(album, mergeChanges: true)
            #expect(album.value(forKey: "name") as? String == "new")
            try context.save()
            let reader = try TestStack.reader(of: context)
            try reader.performAndWait { () throws in
                let saved = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
                #expect(saved.map { $0.value(forKey: "name") as? String } == ["new"])
            }
        }
    }

    /// setPrimitiveValue(_:forKey:): "Sets in the receiver's private internal
    /// storage the value of a given property… does not invoke the change
    /// notification methods" (NSManagedObject). Apple tracks changes through
    /// those notifications, so a primitive set alone is no change; between
    /// willChangeValue and didChangeValue (a custom accessor) it is one.
    @Test(arguments: TestStack.StoreKind.allCases)
    func primitiveSettersAreNotTrackedChanges(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "A"])
            try context.save()
            final class Tally: @unchecked Sendable { var count = 0 }
            let notified = Tally()
            let observer = NotificationCenter.default.addObserver(
                forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
            ) { _ in notified.count += 1 }
            defer { NotificationCenter.default.removeObserver(observer) }

            album.setPrimitiveValue("B", forKey: "name")
            context.processPendingChanges()
            #expect(album.primitiveValue(forKey: "name") as? String == "B")
            #expect(album.value(forKey: "name") as? String == "B")
            #expect(!album.hasChanges && !album.isUpdated && !context.hasChanges)
            #expect(album.changedValues().isEmpty)
            #expect(notified.count == 0)

            // A custom setter in Apple's pattern is a change, and saves.
            album.willChangeValue(forKey: "sheets")
            album.setPrimitiveValue(3, forKey: "sheets")
            album.didChangeValue(forKey: "sheets")
            #expect(album.isUpdated && context.hasChanges)
            #expect(album.changedValues()["sheets"] as? Int32 == 3)
            context.processPendingChanges()
            #expect(notified.count == 1)
            try context.save()
            let reader = try TestStack.reader(of: context)
            try reader.performAndWait { () throws in
                let saved = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
                #expect(saved.value(forKey: "sheets") as? Int32 == 3)
            }
        }
    }

    // MARK: Predicates

    /// "%@ … Var arg substitution for an object value" (Predicate Format
    /// String Syntax): an NSExpression argument stands for itself, so
    /// expressions built in code can be put into format strings.
    @Test func formatArgumentMayBeAnExpression() throws {
        let predicate = NSPredicate(format: "%@ == %@", NSExpression(forKeyPath: "name"), "A")
        #expect(predicate.predicateFormat == #"name == "A""#)
        #expect(predicate.evaluate(with: ["name": "A"]))
        #expect(!predicate.evaluate(with: ["name": "B"]))
        let count = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "items")])
        let sum = NSPredicate(format: "%@ > 2", count)
        #expect(sum.evaluate(with: ["items": [1, 2, 3]]))
    }

    /// TRUE/YES and FALSE/NO are NSNumber constants (kCFBooleanTrue/False)
    /// on Apple, so reading them as numbers works as there.
    @Test func booleanLiteralsAreNumbers() throws {
        let yes = NSExpression(format: "TRUE"), no = NSExpression(format: "NO")
        #expect(yes.constantValue is NSNumber)
        #expect((yes.constantValue as? NSNumber)?.boolValue == true)
        #expect((no.expressionValue(with: nil, context: nil) as? NSNumber)?.boolValue == false)
        #expect(yes.constantValue as? Int == 1)
        #expect(no.constantValue as? Int == 0)
        #expect(yes.constantValue as? Bool == true)
        #expect(NSPredicate(format: "flag == TRUE").evaluate(with: ["flag": true]))
        #expect(NSPredicate(format: "flag == YES").evaluate(with: ["flag": 1]))
        #expect(!NSPredicate(format: "flag == FALSE").evaluate(with: ["flag": true]))
    }

    /// Objects and object IDs as predicate constants match in every store
    /// (the in-memory one compared them wrongly).
    @Test(arguments: TestStack.StoreKind.allCases)
    func objectAndObjectIDConstantsMatch(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            let a = TestStack.insert("Album", into: context, ["name": "a"])
            let b = TestStack.insert("Album", into: context, ["name": "b"])
            for i in 0..<2 { TestStack.insert("Photo", into: context, ["name": "a\(i)", "album": a]) }
            TestStack.insert("Photo", into: context, ["name": "b0", "album": b])
            for saved in [false, true] {
                if saved { try context.save() }
                let photos = NSFetchRequest<NSManagedObject>(entityName: "Photo")
                photos.predicate = NSPredicate(format: "album == %@", a)
                #expect(TestStack.names(try context.fetch(photos)) == ["a0", "a1"])
                photos.predicate = NSPredicate(format: "album == %@", b.objectID)
                #expect(TestStack.names(try context.fetch(photos)) == ["b0"])
                let albums = NSFetchRequest<NSManagedObject>(entityName: "Album")
                albums.predicate = NSPredicate(format: "self == %@", b.objectID)
                #expect(TestStack.names(try context.fetch(albums)) == ["b"])
                albums.predicate = NSPredicate(format: "SELF == %@", a)
                #expect(TestStack.names(try context.fetch(albums)) == ["a"])
                albums.predicate = NSPredicate(format: "SELF IN %@", [a.objectID, b.objectID])
                #expect(TestStack.names(try context.fetch(albums)) == ["a", "b"])
            }
            context.reset()
            let photos = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            let album = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first {
                $0.value(forKey: "name") as? String == "a"
            })
            photos.predicate = NSPredicate(format: "album == %@", album)
            #expect(TestStack.names(try context.fetch(photos)) == ["a0", "a1"])
            photos.predicate = NSPredicate(format: "album == %@", album.objectID)
            #expect(TestStack.names(try context.fetch(photos)) == ["a0", "a1"])
        }
    }

    // MARK: Metadata

    /// NSPersistentStore.metadata and setMetadata(_:for:) are saved with
    /// the next save ("the metadata is written … when the store is saved",
    /// NSPersistentStoreCoordinator.setMetadata(_:for:)) and read back with
    /// metadataForPersistentStore(ofType:at:options:) and by reopening.
    @Test func metadataIsSavedWithTheNextSave() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let coordinator = try #require(context.persistentStoreCoordinator)
        let store = try #require(coordinator.persistentStores.first)
        let url = try #require(store.url)
        var metadata = coordinator.metadata(for: store)
        metadata["appVersion"] = "2.1"
        coordinator.setMetadata(metadata, for: store)
        store.metadata["lastSync"] = 1234
        #expect(coordinator.metadata(for: store)["appVersion"] as? String == "2.1")
        try context.performAndWait { () throws in
            TestStack.insert("Album", into: context, ["name": "x"])
            try context.save()
        }
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url,
                                                                               options: nil)
        #expect(read["appVersion"] as? String == "2.1")
        #expect(read["lastSync"] as? Int == 1234)
        #expect(read[NSStoreUUIDKey] as? String == store.identifier)
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        let again = try reopened.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                                    options: nil)
        #expect(again.metadata["appVersion"] as? String == "2.1")
        #expect(reopened.metadata(for: again)["lastSync"] as? Int == 1234)
    }

    // MARK: Deleted objects

    /// Core Data returns nil for a property of an object whose deletion was
    /// saved (its context let it go); typed accessors read nil or 0.
    @Test(arguments: TestStack.StoreKind.allCases)
    func deletedAndSavedObjectsReadNil(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(photoClass: "OpenCoreDataTests.PortedPhoto",
                                                                  albumClass: "OpenCoreDataTests.PortedAlbum"),
                                            kind)
        try context.performAndWait { () throws in
            let album = PortedAlbum(context: context)
            album.name = "gone"
            album.sheets = 4
            let photo = PortedPhoto(context: context)
            photo.name = "p"
            photo.index = 3
            photo.album = album
            try context.save()
            context.delete(album)
            try context.save()
            #expect(album.managedObjectContext == nil && photo.managedObjectContext == nil)
            #expect(album.name == nil && album.sheets == 0 && (album.photos?.count ?? 0) == 0)
            #expect(photo.name == nil && photo.index == 0 && photo.album == nil)
            #expect(album.value(forKey: "name") == nil)
            #expect(photo.value(forKeyPath: "album.name") == nil)
        }
    }
}
