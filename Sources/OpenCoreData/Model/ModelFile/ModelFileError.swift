/// A model file that could not be read, or a model that is not valid.
///
/// Bridges to NSError in NSCocoaErrorDomain: `NSFileReadNoSuchFileError` (260)
/// for a missing file, `NSFileReadCorruptFileError` (259) for a file that is not
/// a model, and `NSCoreDataError` (134060) for a model whose content is invalid.
/// The message names the file, the line, and the entity and property involved.
public struct ModelFileError: Error, CustomNSError, LocalizedError, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        case missingFile
        case unreadable
        case invalidModel
    }

    public var kind: Kind
    /// What is wrong and, where it helps, what to do about it.
    public var message: String
    public var file: URL?
    public var line: Int?
    public var entityName: String?
    public var propertyName: String?

    public init(_ kind: Kind, _ message: String, file: URL? = nil, line: Int? = nil,
                entity: String? = nil, property: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.entityName = entity
        self.propertyName = property
    }

    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int {
        switch kind {
        case .missingFile: return CocoaError.fileReadNoSuchFile.rawValue
        case .unreadable: return CocoaError.fileReadCorruptFile.rawValue
        case .invalidModel: return NSCoreDataError
        }
    }

    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let file { info[NSFilePathErrorKey] = file.path }
        return info
    }

    public var errorDescription: String? { description }

    public var description: String {
        var place: [String] = []
        if let file { place.append(file.path) }
        if let line { place.append("line \(line)") }
        if let entity = entityName { place.append("entity '\(entity)'") }
        if let property = propertyName { place.append("property '\(property)'") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }
}
