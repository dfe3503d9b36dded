/// A model file that could not be read, or a model that is not valid.
///
/// Bridges to NSError in NSCocoaErrorDomain: `NSFileReadNoSuchFileError` (260)
/// for a missing file, `NSFileReadCorruptFileError` (259) for a file that is not
/// a model, and `NSCoreDataError` (134060) for a model whose content is invalid.
/// The message names the file, the line, and the entity and property involved.
public struct ModelFileError: Error, CustomNSError, LocalizedError, CustomStringConvertible, Equatable {
    /// What went wrong, which decides the bridged error code.
    public enum Kind: Sendable, Equatable {
        /// No file at the path (`NSFileReadNoSuchFileError`, 260).
        case missingFile
        /// A file that is not a model file Xcode writes (`NSFileReadCorruptFileError`, 259).
        case unreadable
        /// A model file whose content breaks a rule of Core Data's models (``NSCoreDataError``, 134060).
        case invalidModel
    }

    /// What went wrong.
    public var kind: Kind
    /// What is wrong and, where it helps, what to do about it.
    public var message: String
    /// The file read, when the error concerns one.
    public var file: URL?
    /// The line of `file` the error was found on, when known.
    public var line: Int?
    /// The entity involved, when there is one.
    public var entityName: String?
    /// The property involved, when there is one.
    public var propertyName: String?

    /// An error of `kind` saying `message`, with the place it was found.
    public init(_ kind: Kind, _ message: String, file: URL? = nil, line: Int? = nil,
                entity: String? = nil, property: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.entityName = entity
        self.propertyName = property
    }

    /// `NSCocoaErrorDomain`, as Core Data's errors.
    public static var errorDomain: String { NSCocoaErrorDomain }

    /// 260, 259 or 134060 by ``kind``.
    public var errorCode: Int {
        switch kind {
        case .missingFile: return CocoaError.fileReadNoSuchFile.rawValue
        case .unreadable: return CocoaError.fileReadCorruptFile.rawValue
        case .invalidModel: return NSCoreDataError
        }
    }

    /// The ``description`` as `NSLocalizedDescriptionKey`, and the file's path as `NSFilePathErrorKey`.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let file { info[NSFilePathErrorKey] = file.path }
        return info
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }

    /// The message after the place: file, line, entity and property, those that are known.
    public var description: String {
        var place: [String] = []
        if let file { place.append(file.path) }
        if let line { place.append("line \(line)") }
        if let entity = entityName { place.append("entity '\(entity)'") }
        if let property = propertyName { place.append("property '\(property)'") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }
}
