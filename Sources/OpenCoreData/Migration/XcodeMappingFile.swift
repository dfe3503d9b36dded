#if canImport(FoundationXML)
import FoundationXML
#endif

/// The objects of an `.xcmappingmodel`'s `xcmapping.xml`: a Core Data XML
/// store of Xcode's mapping editor (`<database>`, then one `<object
/// type="…" id="…">` per object with `<attribute name="…">` values and
/// `<relationship name="…" idrefs="…">` references). Its objects are an
/// XDDEVMAPPINGMODEL (the paths of the two models), one XDDEVENTITYMAPPING
/// per entity mapping and one XDDEVATTRIBUTEMAPPING or
/// XDDEVRELATIONSHIPMAPPING per property mapping; names are read
/// case-insensitively. Linear in the file's size.
struct XcodeMappingFile {
    struct Object {
        var type: String
        var attributes: [String: String] = [:]
        var references: [String: [String]] = [:]

        func string(_ name: String) -> String? {
            attributes[name].flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    let url: URL
    let objects: [String: Object]

    /// Reads `url`: an `.xcmappingmodel` folder or its `xcmapping.xml`.
    /// Throws 259 (NSFileReadCorruptFileError) for a file that is not such
    /// a store, 260 when there is none.
    init(url: URL) throws {
        var isDirectory: ObjCBool = false
        let xml = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? url.appendingPathComponent("xcmapping.xml") : url
        guard let data = FileManager.default.contents(atPath: xml.path) else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                          userInfo: [NSFilePathErrorKey: xml.path,
                                     NSLocalizedDescriptionKey: "No mapping model file at \(xml.path)."])
        }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse(), reader.sawDatabase,
              reader.objects.values.contains(where: { $0.type == "XDDEVMAPPINGMODEL" }) else {
            let reason = parser.parserError.map { " (\($0.localizedDescription))" } ?? ""
            throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadCorruptFileError,
                          userInfo: [NSFilePathErrorKey: xml.path,
                                     NSLocalizedDescriptionKey: "\(xml.path) is not an Xcode mapping model"
                                        + " (a Core Data XML store with an XDDEVMAPPINGMODEL)\(reason)."])
        }
        self.url = url
        self.objects = reader.objects
    }

    /// The XDDEVMAPPINGMODEL object.
    var root: Object { objects.values.first { $0.type == "XDDEVMAPPINGMODEL" }! }

    /// The objects `object` refers to under `name`, in the file's order.
    func referenced(_ name: String, from object: Object) -> [Object] {
        (object.references[name] ?? []).compactMap { objects[$0] }
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var objects: [String: Object] = [:]
        var sawDatabase = false
        private var current: (id: String, object: Object)?
        private var attributeName: String?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String]) {
            switch name {
            case "database": sawDatabase = true
            case "object":
                current = (attributes["id"] ?? "", Object(type: (attributes["type"] ?? "").uppercased()))
            case "attribute" where current != nil:
                attributeName = attributes["name"]?.lowercased()
                text = ""
            case "relationship" where current != nil:
                if let relationship = attributes["name"]?.lowercased() {
                    current?.object.references[relationship] = (attributes["idrefs"] ?? "")
                        .split(separator: " ").map(String.init)
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if attributeName != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "attribute", let attributeName {
                current?.object.attributes[attributeName] = text.trimmingCharacters(in: .whitespacesAndNewlines)
                self.attributeName = nil
            } else if name == "object", let current {
                objects[current.id] = current.object
                self.current = nil
            }
        }
    }
}
