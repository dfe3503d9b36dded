import Testing
@testable import OpenCoreDataCore
import TestScratch

/// A broken model file is a thrown error that names the file, the line, and
/// the entity and property where it went wrong — never a crash.
@Suite struct ModelFileErrorTests {
    static func read(_ body: String) throws -> NSManagedObjectModel {
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>
        """
        return try ModelXMLReader.read(data: Data(xml.utf8), file: URL(fileURLWithPath: "/tmp/Broken.xcdatamodel/contents"))
    }

    static func error(_ body: String) -> ModelFileError? {
        do { _ = try read(body); return nil } catch { return error as? ModelFileError }
    }

    @Test func missingFileIsNoSuchFile() {
        let url = URL(fileURLWithPath: "/nonexistent/Model.xcdatamodeld")
        #expect(NSManagedObjectModel(contentsOf: url) == nil)
        do {
            _ = try NSManagedObjectModel.load(contentsOf: url)
            Issue.record("no error")
        } catch {
            // On Linux `catch let e as NSError` does not match Swift error
            // types; the `as NSError` expression bridges them.
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileReadNoSuchFile.rawValue)
            #expect(error.userInfo[NSFilePathErrorKey] as? String == url.path)
        }
    }

    @Test func malformedXMLNamesTheLine() {
        let error = Self.error("<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n</entity>")
        #expect(error?.kind == .unreadable)
        #expect((error?.line ?? 0) >= 4)
        #expect((error as NSError?)?.code == CocoaError.fileReadCorruptFile.rawValue)
    }

    @Test func wrongRootElement() throws {
        do {
            _ = try ModelXMLReader.read(data: Data("<plist><dict/></plist>".utf8))
            Issue.record("no error")
        } catch let error as ModelFileError {
            #expect(error.kind == .unreadable && error.message.contains("<model>"))
        }
    }

    @Test func unknownAttributeTypeNamesEntityPropertyAndLine() {
        let error = Self.error("""
        <entity name="Photo">
            <attribute name="name" attributeType="String"/>
            <attribute name="size" attributeType="Integer 128"/>
        </entity>
        """)
        #expect(error?.entityName == "Photo" && error?.propertyName == "size" && error?.line == 5)
        #expect(error?.message.contains("Integer 128") == true)
        #expect(error?.description.contains("/tmp/Broken.xcdatamodel/contents, line 5, entity 'Photo', property 'size'") == true)
        #expect((error as NSError?)?.code == NSCoreDataError)
    }

    @Test(arguments: [
        ("<entity name=\"A\"><relationship name=\"b\" destinationEntity=\"B\" deletionRule=\"Nullify\"/></entity>", "A", "b", "destinationEntity 'B'"),
        ("<entity name=\"A\"><relationship name=\"b\" destinationEntity=\"A\" deletionRule=\"Explode\"/></entity>", "A", "b", "deletionRule"),
        ("<entity name=\"A\"><relationship name=\"b\" destinationEntity=\"A\" inverseName=\"c\" inverseEntity=\"A\"/></entity>", "A", "b", "inverse relationship 'c'"),
        ("<entity name=\"A\"><relationship name=\"b\" deletionRule=\"Nullify\"/></entity>", "A", "b", "destinationEntity"),
        ("<entity name=\"A\" parentEntity=\"Z\"/>", "A", nil, "parentEntity 'Z'"),
        ("<entity name=\"A\"/><entity name=\"A\"/>", "A", nil, "Two entities"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/><attribute name=\"x\" attributeType=\"String\"/></entity>", "A", "x", "Two properties"),
        ("<entity name=\"A\"><attribute attributeType=\"String\"/></entity>", "A", nil, "no name"),
        ("<entity name=\"A\"><attribute name=\"x\"/></entity>", "A", "x", "no attribute type"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\" regularExpressionString=\"[a-\"/></entity>", "A", "x", "regular expression"),
        ("<entity name=\"A\"><relationship name=\"b\" toMany=\"YES\" minCount=\"5\" maxCount=\"2\" destinationEntity=\"A\"/></entity>", "A", "b", "minCount 5"),
        ("<entity name=\"A\"><relationship name=\"b\" minCount=\"x\" destinationEntity=\"A\"/></entity>", "A", "b", "not a number"),
        ("<entity name=\"A\"><attribute name=\"c\" attributeType=\"Composite\" composite=\"Missing\"/></entity>", "A", "c", "composite 'Missing'"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/><uniquenessConstraints><uniquenessConstraint><constraint value=\"y\"/></uniquenessConstraint></uniquenessConstraints></entity>", "A", nil, "uniqueness constraint names 'y'"),
        ("<entity name=\"A\"><fetchIndex name=\"i\"><fetchIndexElement property=\"q\" type=\"Binary\" order=\"ascending\"/></fetchIndex></entity>", "A", nil, "Index 'i'"),
        ("<entity name=\"A\"/><configuration name=\"C\"><memberEntity name=\"B\"/></configuration>", nil, nil, "Configuration 'C'"),
        ("<entity name=\"A\"/><entity name=\"B\" parentEntity=\"A\"><attribute name=\"x\" attributeType=\"String\"/></entity><entity name=\"C\" parentEntity=\"B\"><attribute name=\"x\" attributeType=\"String\"/></entity>", "C", "x", "inherited from 'B'"),
    ] as [(String, String?, String?, String)])
    func brokenContentIsAnErrorThatSaysWhere(body: String, entity: String?, property: String?, mentions: String) {
        let error = Self.error(body)
        #expect(error != nil, "accepted: \(body)")
        #expect(error?.entityName == entity)
        #expect(error?.propertyName == property)
        #expect(error?.message.contains(mentions) == true, "\(String(describing: error))")
        #expect(error?.file?.path == "/tmp/Broken.xcdatamodel/contents")
    }

    /// A relationship whose inverse names another relationship back is what
    /// Xcode only warns about; shipped models have it (artsy/energy in the
    /// corpus), so a file with it loads, with a warning, while `validate()`
    /// of the same model throws.
    @Test func nonReciprocalInverseLoadsWithWarning() throws {
        let model = try Self.read("""
        <entity name="Artist">
            <relationship name="thumbnail" optional="YES" maxCount="1" destinationEntity="Image" inverseName="thumbnail" inverseEntity="Image"/>
        </entity>
        <entity name="Image">
            <relationship name="artist" optional="YES" maxCount="1" destinationEntity="Artist" inverseName="thumbnail" inverseEntity="Artist"/>
            <relationship name="thumbnail" optional="YES" maxCount="1" destinationEntity="Artist" inverseName="thumbnail" inverseEntity="Artist"/>
        </entity>
        """)
        #expect(model.validationWarnings.map(\.propertyName) == ["artist"])
        #expect(throws: ModelFileError.self) { try model.validate() }
    }

    @Test func unknownElementsAndAttributesAreIgnored() throws {
        let model = try Self.read("""
        <entity name="A" futureFlag="YES"><attribute name="x" attributeType="String" someNewSetting="7"/><futureThing/></entity>
        <elements><element name="A" positionX="0" positionY="0" width="128" height="45"/></elements>
        """)
        #expect(model.entitiesByName["A"]?.attributesByName["x"]?.attributeType == .stringAttributeType)
    }

    @Test func folderWithoutContentsSaysWhy() throws {
        let folder = ScratchDirectory.url("Legacy-\(UUID()).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ModelFileError.self) { try NSManagedObjectModel.load(contentsOf: folder) }
    }

    @Test func bundleNamingAMissingCurrentVersionFails() throws {
        let bundle = ScratchDirectory.url("M-\(UUID()).xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("V1.xcdatamodel"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bundle) }
        try SeedModels.company().write(to: bundle.appendingPathComponent("V1.xcdatamodel"))
        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "V2.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(throws: ModelFileError.self) { try NSManagedObjectModel.load(contentsOf: bundle) }
        try FileManager.default.removeItem(at: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(try NSManagedObjectModel.load(contentsOf: bundle).isEqual(SeedModels.company()))
    }
}
