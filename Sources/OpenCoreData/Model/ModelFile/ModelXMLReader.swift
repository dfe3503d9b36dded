#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the `contents` XML of an `.xcdatamodel` into an `NSManagedObjectModel`.
///
/// Reads everything Xcode writes (shared/corpus/FORMAT.md §3); ignores what it
/// does not know and the diagram layout. Names between elements (superentity,
/// destination, inverse, composite type) are linked once the whole file is
/// read, so their order in the file does not matter. Errors name the file,
/// the line, and the entity and property being read.
final class ModelXMLReader: NSObject, XMLParserDelegate {
    private let file: URL?
    private let model = NSManagedObjectModel()
    private var entities: [NSEntityDescription] = []
    private var composites: [String: [NSAttributeDescription]] = [:]
    private var configurations: [(name: String, members: [String])] = []

    // What is open at the current point of the file.
    private var path: [String] = []
    private var entity: NSEntityDescription?
    private var ownProperties: [NSPropertyDescription] = []
    private var property: NSPropertyDescription?
    private var compositeName: String?
    private var index: NSFetchIndexDescription?
    private var group: [String] = []
    private var userInfo: [AnyHashable: Any] = [:]
    private var failure: ModelFileError?
    private var line = 0

    private init(file: URL?) { self.file = file }

    /// The model in the XML file at `url`.
    static func read(contentsOf url: URL) throws -> NSManagedObjectModel {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ModelFileError(.missingFile, "The model file can't be read.", file: url)
        }
        return try read(data: data, file: url)
    }

    /// The model in `data`; `file` only names the source in errors.
    static func read(data: Data, file: URL? = nil) throws -> NSManagedObjectModel {
        let data = try utf8Document(data, file: file)
        try ModelXMLProcessingInstructions.refuse(in: data, file: file)
        let reader = ModelXMLReader(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "malformed XML"
            throw ModelFileError(.unreadable, "Not well-formed XML (\(reason)).", file: file, line: parser.lineNumber)
        }
        guard reader.sawModel, reader.path.isEmpty else {
            throw ModelFileError(.unreadable, "Not a Core Data model: the root element is not <model>.", file: file)
        }
        let model = try reader.finish()
        do {
            try model.validateAcceptingXcodeWarnings()
        } catch var error as ModelFileError {
            error.file = file
            throw error
        }
        return model
    }

    private var sawModel = false

    /// FoundationXML stops the program on an element or attribute name that
    /// is not UTF-8: libxml2 hands such names on unchecked (in a document it
    /// takes for UTF-8, also one declaring an encoding it does not know). So
    /// the parser only ever sees checked UTF-8: a document in UTF-8 (what
    /// Xcode writes: declared so, or undeclared) is checked as it is; one in
    /// UTF-16 (byte order mark or `<` as two bytes) or declaring an encoding
    /// Foundation decodes is transcoded, its declaration then saying UTF-8.
    /// Throws a ModelFileError naming the line of the first byte that is not
    /// UTF-8, or the encoding that is not supported or does not decode.
    static func utf8Document(_ data: Data, file: URL?) throws -> Data {
        let head = Array(data.prefix(4))
        let utf16: String.Encoding? = switch head.prefix(2) {
        case [0xFE, 0xFF], [0xFF, 0xFE]: .utf16
        case [0, 0x3C]: .utf16BigEndian
        case [0x3C, 0]: .utf16LittleEndian
        default: nil
        }
        if head.starts(with: [0, 0, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0, 0]) {
            return try transcoded(data, from: .utf32, named: "UTF-32", file: file)
        }
        if let utf16 { return try transcoded(data, from: utf16, named: "UTF-16", file: file) }
        if let declared = declaredEncoding(data), !["UTF-8", "UTF8"].contains(declared.uppercased()) {
            guard let encoding = supportedEncodings[declared.uppercased()] else {
                throw ModelFileError(.unreadable,
                                     "The encoding '\(declared.prefix(40))' is not supported (model files are UTF-8).",
                                     file: file, line: 1)
            }
            return try transcoded(data, from: encoding, named: declared, file: file)
        }
        // The standard library's validation, compiled optimized, first: the scalar-by-scalar walk below,
        // which counts lines for the error, took a third of a debug build's model load.
        if String(validating: data, as: UTF8.self) != nil { return data }
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") { line += 1 }
            case .error:
                throw ModelFileError(.unreadable, "Not UTF-8: line \(line) holds bytes that are not UTF-8 (model files are UTF-8).",
                                     file: file, line: line)
            case .emptyInput:
                return data
            }
        }
    }

    /// The encodings a declaration may name besides UTF-8, by upper-cased name.
    private static let supportedEncodings: [String: String.Encoding] = [
        "US-ASCII": .ascii, "ASCII": .ascii, "ISO-8859-1": .isoLatin1, "LATIN1": .isoLatin1, "ISO-LATIN-1": .isoLatin1,
        "ISO-8859-2": .isoLatin2, "WINDOWS-1250": .windowsCP1250, "WINDOWS-1251": .windowsCP1251,
        "WINDOWS-1252": .windowsCP1252, "WINDOWS-1253": .windowsCP1253, "WINDOWS-1254": .windowsCP1254,
        "MACINTOSH": .macOSRoman, "X-MAC-ROMAN": .macOSRoman,
        "UTF-16": .utf16, "UTF-16BE": .utf16BigEndian, "UTF-16LE": .utf16LittleEndian,
    ]

    /// `data` decoded from `encoding` and written as UTF-8, its XML
    /// declaration (if any) now naming UTF-8.
    private static func transcoded(_ data: Data, from encoding: String.Encoding, named name: String,
                                   file: URL?) throws -> Data {
        guard var text = String(data: data, encoding: encoding) else {
            throw ModelFileError(.unreadable,
                                 "Not \(name.prefix(40)): the file's bytes do not decode as the encoding it is in.",
                                 file: file, line: 1)
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            let declaration = String(text[..<end.lowerBound])
                .replacing(/encoding\s*=\s*["'][^"']*["']/, with: #"encoding="UTF-8""#)
            text = declaration + text[end.lowerBound...]
        }
        return Data(text.utf8)
    }

    /// The encoding named by the XML declaration (`<?xml … encoding="…"?>`) at
    /// the start of `data`, if any.
    static func declaredEncoding(_ data: Data) -> String? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstRange(of: Array("?>".utf8)) else { return nil }
        let declaration = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
        guard let match = declaration.firstMatch(of: /encoding\s*=\s*["']([^"']*)["']/) else { return nil }
        return String(match.1)
    }

    // MARK: XMLParserDelegate

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        line = parser.lineNumber
        do {
            try start(name, attributes)
        } catch let error as ModelFileError {
            failure = error
            parser.abortParsing()
        } catch {
            failure = fail("\(error)")
            parser.abortParsing()
        }
        path.append(name)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        failure = ModelFileError(.unreadable, "Not well-formed XML (\((parseError as NSError).localizedDescription)).",
                                 file: file, line: max(parser.lineNumber, line))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        // FoundationXML on Linux recovers from some mismatched tags instead of
        // failing; a model file that needs recovering is broken.
        guard path.last == name else {
            failure = ModelFileError(.unreadable, "Not well-formed XML: </\(name)> closes <\(path.last ?? "nothing")>.", file: file, line: parser.lineNumber)
            parser.abortParsing()
            return
        }
        path.removeLast()
        end(name)
    }

    // MARK: Elements

    /// Where each element the reader interprets may stand (FORMAT.md §4):
    /// one elsewhere is misplaced, and reading on would attach it to
    /// whatever is open (a memberEntity without its configuration).
    private static let allowedParents: [String: Set<String>] = [
        "entity": ["model"], "composite": ["model"], "configuration": ["model"], "elements": ["model"],
        "attribute": ["entity", "composite"], "relationship": ["entity"], "fetchedProperty": ["entity"],
        "fetchRequest": ["model", "fetchedProperty"], "fetchIndex": ["entity"], "fetchIndexElement": ["fetchIndex"],
        "compoundIndexes": ["entity"], "compoundIndex": ["compoundIndexes"], "index": ["compoundIndex"],
        "uniquenessConstraints": ["entity"], "uniquenessConstraint": ["uniquenessConstraints"], "constraint": ["uniquenessConstraint"],
        "userInfo": ["entity", "attribute", "relationship", "fetchedProperty"], "entry": ["userInfo"],
        "memberEntity": ["configuration"], "element": ["elements"], "model": [],
    ]

    private func start(_ name: String, _ a: [String: String]) throws {
        let parent = path.last
        if let parent, let allowed = Self.allowedParents[name], !allowed.contains(parent) {
            let places = allowed.sorted().map { "<\($0)>" }.joined(separator: " or ")
            throw ModelFileError(.unreadable, "A <\(name)> inside <\(parent)>: it belongs \(places.isEmpty ? "at the top of the file" : "inside \(places)").",
                                 file: file, line: line, entity: entity?.name, property: property?.name)
        }
        switch (parent, name) {
        case (nil, "model"):
            sawModel = true
            var header = a
            if let identifier = header.removeValue(forKey: "userDefinedModelVersionIdentifier"), !identifier.isEmpty {
                model.versionIdentifiers = [identifier]
            }
            model.modelFileAttributes = header
        case (nil, _):
            throw ModelFileError(.unreadable, "Not a Core Data model: the root element is <\(name)>, not <model>.", file: file, line: line)
        case ("model", "entity"):
            let entity = NSEntityDescription()
            entity.name = try required(a, "name", of: "entity")
            self.entity = entity
            if let className = a["representedClassName"] { entity.managedObjectClassName = className }
            entity.unresolvedParentName = a["parentEntity"]
            entity.isAbstract = flag(a["isAbstract"])
            entity.codeGenerationType = a["codeGenerationType"]
            entity.renamingIdentifier = a["elementID"]
            entity.versionHashModifier = a["versionHashModifier"]
            userInfo = [:]
        case ("model", "composite"):
            compositeName = try required(a, "name", of: "composite")
            composites[compositeName!] = []
        case ("entity", "attribute"), ("composite", "attribute"):
            let attribute = try readAttribute(a)
            property = attribute
            userInfo = [:]
            if parent == "composite", let compositeName { composites[compositeName]!.append(attribute) }
        case ("entity", "relationship"):
            property = try readRelationship(a)
            userInfo = [:]
        case ("entity", "fetchedProperty"):
            let fetched = NSFetchedPropertyDescription()
            fetched.name = try required(a, "name", of: "fetched property")
            fetched.isOptional = flag(a["optional"])
            property = fetched
            userInfo = [:]
        case ("fetchedProperty", "fetchRequest"):
            (property as? NSFetchedPropertyDescription)?.fetchRequestDescription = try readFetchRequest(a)
        case ("model", "fetchRequest"):
            let templateName = try required(a, "name", of: "fetch request template")
            model.setFetchRequestDescription(try readFetchRequest(a), forName: templateName)
        case ("entity", "fetchIndex"):
            index = NSFetchIndexDescription(name: try required(a, "name", of: "fetch index"), elements: [])
        case ("fetchIndex", "fetchIndexElement"):
            let type = a["type"].map { $0.lowercased() == "rtree" ? NSFetchIndexElementType.rTree : .binary } ?? .binary
            let element = NSFetchIndexElementDescription(
                propertyName: try required(a, "property", of: "fetch index element"),
                collationType: type, isAscending: a["order"] != "descending")
            index?.elements.append(element)
        case ("compoundIndexes", "compoundIndex"), ("uniquenessConstraints", "uniquenessConstraint"):
            group = []
        case ("compoundIndex", "index"), ("uniquenessConstraint", "constraint"):
            group.append(try required(a, "value", of: name))
        case ("userInfo", "entry"):
            userInfo[try required(a, "key", of: "userInfo entry")] = a["value"] ?? ""
        case ("model", "configuration"):
            let configurationName = try required(a, "name", of: "configuration")
            configurations.append((configurationName, []))
            if flag(a["usedWithCloudKit"]) { model.configurationsUsedWithCloudKit.insert(configurationName) }
        case ("configuration", "memberEntity"):
            configurations[configurations.count - 1].members.append(try required(a, "name", of: "memberEntity"))
        default:
            break // Layout elements and anything newer than this reader.
        }
    }

    private func end(_ name: String) {
        switch (path.last, name) {
        case ("model", "entity"):
            if let entity {
                entity.userInfo = userInfo
                entity.properties = ownProperties
                entities.append(entity)
            }
            entity = nil
            ownProperties = []
            userInfo = [:]
        case ("entity", "attribute"), ("entity", "relationship"), ("entity", "fetchedProperty"):
            if let property {
                property.userInfo = userInfo
                ownProperties.append(property)
            }
            property = nil
            userInfo = [:]
        case ("composite", "attribute"):
            property?.userInfo = userInfo
            property = nil
            userInfo = [:]
        case ("model", "composite"):
            compositeName = nil
        case ("entity", "fetchIndex"):
            if let index, let entity { entity.indexes.append(index) }
            index = nil
        case ("compoundIndexes", "compoundIndex"):
            entity?.compoundIndexes.append(group)
        case ("uniquenessConstraints", "uniquenessConstraint"):
            entity?.uniquenessConstraints.append(group)
        default:
            break
        }
    }

    // MARK: Properties

    private func readAttribute(_ a: [String: String]) throws -> NSAttributeDescription {
        let name = try required(a, "name", of: "attribute")
        var type = NSAttributeType.undefinedAttributeType
        if let typeName = a["attributeType"] {
            guard let known = NSAttributeType(modelFileName: typeName) else {
                throw fail("Unknown attributeType '\(typeName)'. Expected one of: \(NSAttributeType.allCases.compactMap(\.modelFileName).joined(separator: ", ")).", property: name)
            }
            type = known
        }
        let attribute: NSAttributeDescription
        if type == .compositeAttributeType {
            let composite = NSCompositeAttributeDescription()
            composite.compositeTypeName = a["composite"]
            attribute = composite
        } else if flag(a["derived"]) {
            let derived = NSDerivedAttributeDescription()
            derived.derivationExpressionFormat = a["derivationExpression"]
            attribute = derived
        } else {
            attribute = NSAttributeDescription()
        }
        attribute.name = name
        attribute.attributeType = type
        try readCommon(a, into: attribute)
        attribute.valueTransformerName = a["valueTransformerName"]
        if let className = a["customClassName"] { attribute.attributeValueClassName = className }
        attribute.usesScalarValueType = a["usesScalarValueType"].map(flag)
        attribute.allowsExternalBinaryDataStorage = flag(a["allowsExternalBinaryDataStorage"])
        attribute.preservesValueInHistoryOnDeletion = flag(a["preserveAfterDeletion"])
        attribute.allowsCloudEncryption = flag(a["allowsCloudEncryption"])
        attribute.isIndexedBySpotlight = flag(a["spotlightIndexingEnabled"])
        attribute.isStoredInExternalRecord = flag(a["storedInTruthFile"])
        attribute.validationRules = AttributeValidationRules(
            minValueString: a["minValueString"], maxValueString: a["maxValueString"],
            minDateTimeInterval: try a["minDateTimeInterval"].map { try number($0, "minDateTimeInterval", name) },
            maxDateTimeInterval: try a["maxDateTimeInterval"].map { try number($0, "maxDateTimeInterval", name) },
            regularExpressionString: a["regularExpressionString"])
        if let interval = a["defaultDateTimeInterval"] {
            attribute.defaultValue = Date(timeIntervalSinceReferenceDate: try number(interval, "defaultDateTimeInterval", name))
        } else if let text = a["defaultValueString"] {
            // Xcode does not check default values (a UUID default of "empy" is in
            // the corpus); one that does not fit the type is dropped, as momc does.
            attribute.defaultValue = ModelValueText.value(text, of: type)
        }
        return attribute
    }

    private func readRelationship(_ a: [String: String]) throws -> NSRelationshipDescription {
        let name = try required(a, "name", of: "relationship")
        let relationship = NSRelationshipDescription()
        relationship.name = name
        try readCommon(a, into: relationship)
        relationship.unresolvedDestinationName = try required(a, "destinationEntity", of: "relationship", property: name)
        if let inverseName = a["inverseName"] { relationship.unresolvedInverse = (a["inverseEntity"], inverseName) }
        if let rule = a["deletionRule"] {
            guard let known = NSDeleteRule(modelFileName: rule) else {
                throw fail("Unknown deletionRule '\(rule)'. Expected Nullify, Cascade, Deny or No Action.", property: name)
            }
            relationship.deleteRule = known
        }
        let toMany = flag(a["toMany"])
        relationship.minCount = try a["minCount"].map { try count($0, "minCount", name) } ?? 0
        relationship.maxCount = try a["maxCount"].map { try count($0, "maxCount", name) } ?? (toMany ? 0 : 1)
        if toMany && relationship.maxCount == 1 {
            throw fail("A to-many relationship with maxCount 1 can't be told from a to-one; remove maxCount or toMany.", property: name)
        }
        relationship.isOrdered = flag(a["ordered"])
        return relationship
    }

    private func readCommon(_ a: [String: String], into property: NSPropertyDescription) throws {
        property.isOptional = flag(a["optional"])
        property.isTransient = flag(a["transient"])
        property.isIndexed = flag(a["indexed"])
        property.renamingIdentifier = a["elementID"]
        property.versionHashModifier = a["versionHashModifier"]
    }

    private func readFetchRequest(_ a: [String: String]) throws -> FetchRequestDescription {
        var request = FetchRequestDescription(entityName: try required(a, "entity", of: "fetch request"),
                                              predicateFormat: a["predicateString"])
        request.resultType = try a["resultType"].map { UInt(try count($0, "resultType", nil)) }
        request.fetchLimit = try a["fetchLimit"].map { try count($0, "fetchLimit", nil) }
        request.fetchBatchSize = try a["fetchBatchSize"].map { try count($0, "fetchBatchSize", nil) }
        request.includesSubentities = a["includeSubentities"].map(flag)
        request.includesPropertyValues = a["includePropertyValues"].map(flag)
        request.includesPendingChanges = a["includesPendingChanges"].map(flag)
        request.returnsObjectsAsFaults = a["returnObjectsAsFaults"].map(flag)
        request.returnsDistinctResults = a["returnDistinctResults"].map(flag)
        return request
    }

    private func finish() throws -> NSManagedObjectModel {
        try ModelXMLLinker(file: file, entities: entities, composites: composites, configurations: configurations)
            .link(into: model)
        return model
    }

    // MARK: Values

    private func flag(_ text: String?) -> Bool {
        guard let text else { return false }
        return ["YES", "yes", "true", "TRUE", "1"].contains(text)
    }

    private func number(_ text: String, _ key: String, _ propertyName: String?) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw fail("\(key) '\(text)' is not a number.", property: propertyName)
        }
        return value
    }

    /// A count, limit or kind: a number whose whole part is at least 0 and
    /// fits an Int (the fuzzer's `maxCount="1e300"` stopped the conversion).
    private func count(_ text: String, _ key: String, _ propertyName: String?) throws -> Int {
        let value = try number(text, key, propertyName)
        guard value.isFinite, let whole = Int(exactly: value.rounded(.towardZero)), whole >= 0 else {
            throw fail("\(key) '\(text.prefix(40))' is not a count (a whole number from 0).", property: propertyName)
        }
        return whole
    }

    private func required(_ a: [String: String], _ key: String, of element: String, property: String? = nil) throws -> String {
        guard let value = a[key], !value.isEmpty else {
            throw fail("A <\(path.last.map { _ in element } ?? element)> has no \(key); every \(element) needs one.", property: property)
        }
        return value
    }

    private func fail(_ message: String, property: String? = nil) -> ModelFileError {
        ModelFileError(.invalidModel, message, file: file, line: line, entity: entity?.name,
                       property: property ?? self.property?.name)
    }
}
