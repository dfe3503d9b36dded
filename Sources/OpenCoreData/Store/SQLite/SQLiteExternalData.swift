import GRDB

/// Bytes of `allowsExternalBinaryDataStorage` attributes as Core Data keeps
/// them: the column holds a tagged BLOB, `0x01` followed by the bytes
/// themselves, or `0x02` followed by the ASCII name of a file (a UUID string
/// and a NUL) in `.<store file name without extension>_SUPPORT/_EXTERNAL_DATA/`
/// beside the store.
///
/// Reading a file costs one `Data(contentsOf:)`; writing one costs a
/// temporary file and a rename (an atomic write, so a crash never leaves a
/// half-written file under a name a row points to).
struct SQLiteExternalData: Sendable {
    /// Values of at least this many bytes go to a file, smaller ones stay in the row.
    ///
    /// Core Data does not document its threshold (reference §7.2): about 1 MB was
    /// measured on Lion, about 100 KB is reported for later systems. We take the
    /// later report, 100 KiB, as the systems writing stores today behave so; the
    /// exact number matters to no reader, since reading follows the tag, not the size.
    static let threshold = 100 * 1024

    /// First byte of a column value followed by the bytes themselves.
    static let inlineTag: UInt8 = 1
    /// First byte of a column value followed by the name of a file.
    static let externalTag: UInt8 = 2

    private let storeURL: URL
    /// An in-memory store (at `/dev/null`) has no folder beside it: every value stays in its row.
    let keepsAllInline: Bool

    /// `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store file. Made when asked for: Foundation's URL
    /// operations cost ~60k instructions, which opening a store that writes no file should not pay.
    var folder: URL {
        storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(storeURL.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
    }

    /// The files of the store at `storeURL`; `isInMemory` when it is known (``SQLiteConnection/isInMemory(_:)``).
    init(storeURL: URL, isInMemory: Bool? = nil) {
        self.storeURL = storeURL
        keepsAllInline = isInMemory ?? SQLiteConnection.isInMemory(storeURL)
    }

    /// The column value keeping `data` in the row.
    static func inline(_ data: Data) -> DatabaseValue {
        (Data([inlineTag]) + data).databaseValue
    }

    /// The file name an external column value points to; nil for any other value.
    static func fileName(in dbValue: DatabaseValue) -> String? {
        guard case .blob(let data) = dbValue.storage, data.first == externalTag else { return nil }
        return fileName(reference: data.dropFirst())
    }

    /// The file name in the remainder of an external column value. Core Data
    /// ends the name with a NUL (`_PFExternalReferenceData`), so control
    /// characters are trimmed.
    static func fileName(reference: Data) -> String? {
        String(data: reference, encoding: .utf8)?.trimmingCharacters(in: .controlCharacters)
    }

    /// The bytes of the file a reference (a column value without its tag)
    /// names; nil when the file is missing or unreadable.
    func data(reference: Data) -> Data? {
        guard let name = Self.fileName(reference: reference) else { return nil }
        return try? Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Whether the file `name` holds exactly `data`: a stat, and a read only
    /// when the sizes agree.
    func file(_ name: String, holds data: Data) -> Bool {
        let url = folder.appendingPathComponent(name)
        let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        return size == data.count && (try? Data(contentsOf: url)) == data
    }

    /// Writes `data` to a new file (creating the folders) and returns its
    /// name. Throws NSPersistentStoreSaveError with the file system's error as
    /// NSUnderlyingErrorKey when the file cannot be written.
    func write(_ data: Data, for attribute: NSAttributeDescription) throws -> String {
        let name = UUID().uuidString, folder = folder
        let url = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw NSError.coreData(NSPersistentStoreSaveError,
                                   "\(attribute.entity?.name ?? "").\(attribute.name): cannot write its external data to \(url.path): "
                                   + error.localizedDescription,
                                   userInfo: [NSUnderlyingErrorKey: error as NSError, NSFilePathErrorKey: url.path,
                                              NSValidationKeyErrorKey: attribute.name])
        }
        return name
    }

    /// Removes the files `names`. A file that cannot be removed stays as an
    /// orphan: nothing points to it any more, so that costs disk space, never data.
    func remove(_ names: [String]) {
        guard !keepsAllInline else { return }
        let folder = folder
        for name in names { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }

    /// The files one save writes and the files it makes obsolete.
    ///
    /// New files are written while the save's transaction is open, before it
    /// commits; obsolete ones are removed only after it committed
    /// (``committed()``), and a transaction that fails removes what it wrote
    /// (``rolledBack()``). So a row never points to a missing file, whatever
    /// fails or crashes when; the worst case is an orphaned file.
    final class Save {
        /// The store's folder of files.
        let storage: SQLiteExternalData
        /// Files this save wrote: removed if its transaction fails.
        private var written: [String] = []
        /// Files rows pointed to before this save: removed once it committed.
        private var obsolete: [String] = []

        init(storage: SQLiteExternalData) {
            self.storage = storage
        }

        /// The column value for `data` of `attribute`, whose column held
        /// `previous`: inline below ``SQLiteExternalData/threshold``, else the
        /// previous file when it holds the same bytes (so saving another
        /// attribute does not rewrite it), else a new file.
        func columnValue(_ data: Data, for attribute: NSAttributeDescription, previous: DatabaseValue) throws -> DatabaseValue {
            guard data.count >= SQLiteExternalData.threshold, !storage.keepsAllInline else {
                return SQLiteExternalData.inline(data)
            }
            if let name = SQLiteExternalData.fileName(in: previous), storage.file(name, holds: data) { return previous }
            let name = try storage.write(data, for: attribute)
            written.append(name)
            // As Core Data writes it: tag, name, NUL.
            return (Data([SQLiteExternalData.externalTag]) + Data(name.utf8) + Data([0])).databaseValue
        }

        /// Notes that a column held `previous` and now holds `current` (NULL
        /// for a deleted row): the file `previous` pointed to goes after the commit.
        func replaced(_ previous: DatabaseValue, by current: DatabaseValue = .null) {
            guard let old = SQLiteExternalData.fileName(in: previous), old != SQLiteExternalData.fileName(in: current) else { return }
            obsolete.append(old)
        }

        /// The transaction committed: removes the files no row points to any more.
        func committed() {
            storage.remove(obsolete)
        }

        /// The transaction rolled back: removes the files it wrote, so the old rows keep theirs.
        func rolledBack() {
            storage.remove(written)
        }
    }
}
