/// The tables every Core Data store has besides the model's: entity numbers
/// and primary-key high-water marks, the metadata plist, the cached model.
/// The DDL is verbatim what Core Data writes (including its unusual spacing).
enum SQLiteBookkeeping {
    static let primaryKeyTable = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    static let metadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    static let modelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// The bookkeeping DDL for `format`, in the order Core Data writes it.
    static func createStatements(_ format: SQLiteSchemaFormat) -> [String] {
        format.hasModelCache ? [primaryKeyTable, metadataTable, modelCacheTable] : [primaryKeyTable, metadataTable]
    }
}
