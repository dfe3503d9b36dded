/// One column of a Core Data table, with what it stores.
struct SQLiteColumn: Hashable, Sendable {
    /// What a column holds. Entity and relationship names are the model's.
    enum Role: Hashable, Sendable {
        /// `Z_PK`: the row's primary key, unique within the table.
        case primaryKey
        /// `Z_ENT`: the entity number of the row's entity.
        case entity
        /// `Z_OPT`: the row version, bumped on every saved update.
        case version
        /// A stored attribute of `entity`.
        case attribute(entity: String, name: String)
        /// The primary key of the destination of a to-one relationship of `entity`.
        case foreignKey(entity: String, relationship: String)
        /// `Z<n>_<NAME>`: the entity number of that destination, present when
        /// the destination entity has sub-entities.
        case foreignEntity(entity: String, relationship: String)
        /// `Z_FOK_<NAME>`: the position of this row in the ordered to-many
        /// inverse of the to-one relationship `relationship` of `entity`.
        case orderKey(entity: String, relationship: String)
        /// `Z<n><NAME>`: the primary key of the source of a to-many
        /// relationship of `entity` that has no inverse; lives in the
        /// destination's table.
        case toManyForeignKey(entity: String, relationship: String)
        /// A column of a join table: the primary key of a destination of the
        /// to-many relationship `relationship` of `entity`.
        case joinKey(entity: String, relationship: String)
        /// `Z_FOK_<n><NAME>` in a join table: the position of the destination
        /// in the ordered relationship `relationship` of `entity`.
        case joinOrderKey(entity: String, relationship: String)
    }

    /// The column name, e.g. `ZTITLE`, `Z2_FOLDER`, `Z_FOK_PARENT`.
    var name: String
    var type: SQLiteColumnType
    var role: Role

    /// The column as it appears in `CREATE TABLE`.
    var definition: String {
        role == .primaryKey ? "\(name) \(type.rawValue) PRIMARY KEY" : "\(name) \(type.rawValue)"
    }
}
