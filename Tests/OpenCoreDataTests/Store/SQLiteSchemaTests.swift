import Foundation
import Testing
@testable import OpenCoreDataCore

/// Each layout rule on a small model written the way Xcode writes one.
struct SQLiteSchemaTests {
    func schema(_ entities: String, format: SQLiteSchemaFormat = .current) throws -> SQLiteSchema {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><model>\(entities)</model>"
        return try SQLiteSchema(model: ModelXMLReader.read(data: Data(xml.utf8)), format: format)
    }

    func columns(_ schema: SQLiteSchema, _ table: String) -> [String] {
        schema.table(named: table)?.columns.map { "\($0.name) \($0.type.rawValue)" } ?? []
    }

    @Test func entitiesAreNumberedDepthFirstWithSiblingsByNameIgnoringCase() throws {
        let schema = try schema("""
            <entity name="zebra"/>
            <entity name="Animal"/>
            <entity name="Cat" parentEntity="Animal"/>
            <entity name="Bird" parentEntity="Animal"/>
            <entity name="Kitten" parentEntity="Cat"/>
            <entity name="boat"/>
            """)
        #expect(schema.entities.map(\.name) == ["Animal", "Bird", "Cat", "Kitten", "boat", "zebra"])
        #expect(schema.entities.map(\.superNumber) == [0, 1, 1, 3, 0, 0])
        #expect(schema.entity(named: "Cat")?.numbers == 3...4)
        #expect(schema.entity(named: "Animal")?.numbers == 1...4)
        #expect(schema.entity(named: "Kitten")?.table == "ZANIMAL")
        #expect(schema.tables.map(\.name) == ["ZANIMAL", "ZBOAT", "ZZEBRA"])
    }

    @Test func columnsAreGroupedByTypeThenEntityThenModelOrder() throws {
        let schema = try schema("""
            <entity name="Item">
                <attribute name="title" attributeType="String"/>
                <attribute name="when" attributeType="Date"/>
                <attribute name="count" attributeType="Integer 64"/>
                <attribute name="amount" attributeType="Decimal"/>
                <attribute name="weight" attributeType="Double"/>
                <attribute name="id" attributeType="UUID"/>
                <attribute name="done" attributeType="Boolean"/>
                <attribute name="link" attributeType="URI"/>
                <attribute name="blob" attributeType="Binary"/>
                <attribute name="scratch" attributeType="String" transient="YES"/>
            </entity>
            <entity name="Special" parentEntity="Item">
                <attribute name="level" attributeType="Integer 16"/>
                <attribute name="alpha" attributeType="String"/>
            </entity>
            """)
        #expect(columns(schema, "ZITEM") == [
            "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER",
            "ZCOUNT INTEGER", "ZDONE INTEGER", "ZLEVEL INTEGER",
            "ZWHEN TIMESTAMP", "ZWEIGHT FLOAT", "ZAMOUNT DECIMAL",
            "ZTITLE VARCHAR", "ZLINK VARCHAR", "ZALPHA VARCHAR",
            "ZID BLOB", "ZBLOB BLOB",
        ])
        #expect(schema.table(named: "ZITEM")?.createStatement.hasPrefix("CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT") == true)
        #expect(schema.columnName(forProperty: "title", ofEntity: "Special") == "ZTITLE")
        #expect(schema.columnName(forProperty: "scratch", ofEntity: "Item") == nil)
    }

    @Test func toOneIntoAHierarchyAddsTheEntityColumnAndAnIndex() throws {
        let schema = try schema("""
            <entity name="Folder"/>
            <entity name="Media">
                <relationship name="notes" toMany="YES" destinationEntity="Note" inverseName="media" inverseEntity="Note"/>
            </entity>
            <entity name="Photo" parentEntity="Media"/>
            <entity name="Note">
                <attribute name="size" attributeType="Integer 32"/>
                <relationship name="folder" maxCount="1" destinationEntity="Folder"/>
                <relationship name="media" maxCount="1" destinationEntity="Media" inverseName="notes" inverseEntity="Media"/>
            </entity>
            """)
        // Folder 1, Media 2, Photo 3, Note 4: Z2_MEDIA names Media's number.
        #expect(columns(schema, "ZNOTE") == [
            "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZSIZE INTEGER", "ZFOLDER INTEGER", "ZMEDIA INTEGER", "Z2_MEDIA INTEGER",
        ])
        let indexes = schema.indexes.map(\.createStatement)
        #expect(indexes.contains("CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)"))
        #expect(indexes.contains("CREATE INDEX ZNOTE_ZMEDIA_INDEX ON ZNOTE (ZMEDIA)"))
        #expect(indexes.contains("CREATE INDEX ZMEDIA_Z_ENT_INDEX ON ZMEDIA (Z_ENT)"))
        #expect(!indexes.contains { $0.contains("ZNOTE_Z_ENT_INDEX") || $0.contains("Z2_MEDIA_INDEX") })
        let media = SQLiteRelationshipStorage.ForeignKey(table: "ZNOTE", column: "ZMEDIA", entityColumn: "Z2_MEDIA", orderColumn: nil)
        #expect(schema.storage(ofRelationship: "media", ofEntity: "Note") == .foreignKey(media))
        #expect(schema.storage(ofRelationship: "notes", ofEntity: "Photo") == .inverseForeignKey(media))
    }

    @Test func manyToManyGetsAJoinTableNamedByTheSideWithTheGreaterDestination() throws {
        let schema = try schema("""
            <entity name="Artwork">
                <relationship name="collections" toMany="YES" destinationEntity="Collection" inverseName="artworks" inverseEntity="Collection"/>
            </entity>
            <entity name="Collection">
                <relationship name="artworks" toMany="YES" destinationEntity="Artwork" inverseName="collections" inverseEntity="Artwork"/>
            </entity>
            <entity name="Task">
                <relationship name="blockedBy" toMany="YES" destinationEntity="Task" inverseName="blocking" inverseEntity="Task"/>
                <relationship name="blocking" toMany="YES" destinationEntity="Task" inverseName="blockedBy" inverseEntity="Task"/>
            </entity>
            """)
        #expect(schema.table(named: "Z_1COLLECTIONS")?.createStatement
            == "CREATE TABLE Z_1COLLECTIONS ( Z_1ARTWORKS INTEGER, Z_2COLLECTIONS INTEGER, PRIMARY KEY (Z_1ARTWORKS, Z_2COLLECTIONS) )")
        #expect(schema.table(named: "Z_3BLOCKING")?.primaryKey == ["Z_3BLOCKEDBY", "Z_3BLOCKING"])
        #expect(schema.indexes.map(\.createStatement).contains(
            "CREATE INDEX Z_1COLLECTIONS_Z_2COLLECTIONS_INDEX ON Z_1COLLECTIONS (Z_2COLLECTIONS, Z_1ARTWORKS)"))
        #expect(schema.storage(ofRelationship: "artworks", ofEntity: "Collection")
            == .joinTable(.init(table: "Z_1COLLECTIONS", source: "Z_2COLLECTIONS", destination: "Z_1ARTWORKS", order: nil)))
        #expect(columns(schema, "ZARTWORK") == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER"])
        // Core Data up to framework 519 wrote no join-table index.
        let old = try self.schema("""
            <entity name="A"><relationship name="bs" toMany="YES" destinationEntity="B" inverseName="as" inverseEntity="B"/></entity>
            <entity name="B"><relationship name="as" toMany="YES" destinationEntity="A" inverseName="bs" inverseEntity="A"/></entity>
            """, format: SQLiteSchemaFormat(frameworkVersion: 419))
        #expect(old.indexes.isEmpty)
    }

    @Test func aRelationshipThatIsItsOwnInverseJoinsWithItself() throws {
        let schema = try schema("""
            <entity name="Person">
                <relationship name="friends" toMany="YES" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
            </entity>
            """)
        #expect(schema.table(named: "Z_1FRIENDS")?.primaryKey == ["Z_1FRIENDS", "Z_1FRIENDS1"])
        #expect(schema.storage(ofRelationship: "friends", ofEntity: "Person")
            == .joinTable(.init(table: "Z_1FRIENDS", source: "Z_1FRIENDS", destination: "Z_1FRIENDS1", order: nil)))
    }

    @Test func joinColumnNamesAreUniqueAcrossJoinTables() throws {
        let schema = try schema("""
            <entity name="Album">
                <relationship name="artworks" toMany="YES" destinationEntity="Artwork" inverseName="albums" inverseEntity="Artwork"/>
            </entity>
            <entity name="Artwork">
                <relationship name="albums" toMany="YES" destinationEntity="Album" inverseName="artworks" inverseEntity="Album"/>
                <relationship name="shows" toMany="YES" destinationEntity="Show" inverseName="artworks" inverseEntity="Show"/>
            </entity>
            <entity name="Show">
                <relationship name="artworks" toMany="YES" destinationEntity="Artwork" inverseName="shows" inverseEntity="Artwork"/>
            </entity>
            """)
        #expect(schema.table(named: "Z_1ARTWORKS")?.primaryKey == ["Z_1ALBUMS", "Z_2ARTWORKS"])
        #expect(schema.table(named: "Z_2SHOWS")?.primaryKey == ["Z_2ARTWORKS1", "Z_3SHOWS"])
    }

    @Test func orderedRelationshipsGetOrderKeys() throws {
        let schema = try schema("""
            <entity name="Bookmark">
                <relationship name="children" toMany="YES" ordered="YES" destinationEntity="Bookmark" inverseName="parent" inverseEntity="Bookmark"/>
                <relationship name="favoriteFolders" toMany="YES" destinationEntity="Bookmark" inverseName="favorites" inverseEntity="Bookmark"/>
                <relationship name="favorites" toMany="YES" ordered="YES" destinationEntity="Bookmark" inverseName="favoriteFolders" inverseEntity="Bookmark"/>
                <relationship name="folder" maxCount="1" destinationEntity="Bookmark" inverseName="items" inverseEntity="Bookmark"/>
                <relationship name="items" toMany="YES" ordered="YES" destinationEntity="Bookmark" inverseName="folder" inverseEntity="Bookmark"/>
                <relationship name="parent" maxCount="1" destinationEntity="Bookmark" inverseName="children" inverseEntity="Bookmark"/>
            </entity>
            """)
        #expect(columns(schema, "ZBOOKMARK") == [
            "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER",
            "ZFOLDER INTEGER", "ZPARENT INTEGER", "Z_FOK_FOLDER INTEGER", "Z_FOK_PARENT INTEGER",
        ])
        #expect(schema.table(named: "Z_1FAVORITES")?.createStatement == "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, "
            + "Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )")
        #expect(schema.storage(ofRelationship: "favorites", ofEntity: "Bookmark")
            == .joinTable(.init(table: "Z_1FAVORITES", source: "Z_1FAVORITEFOLDERS", destination: "Z_1FAVORITES", order: "Z_FOK_1FAVORITES")))
        let folder = SQLiteRelationshipStorage.ForeignKey(table: "ZBOOKMARK", column: "ZFOLDER", entityColumn: nil, orderColumn: "Z_FOK_FOLDER")
        #expect(schema.storage(ofRelationship: "folder", ofEntity: "Bookmark") == .foreignKey(folder))
        #expect(schema.storage(ofRelationship: "items", ofEntity: "Bookmark") == .inverseForeignKey(folder))
    }

    @Test func toManyWithoutInverseKeepsAHiddenKeyInTheDestination() throws {
        let schema = try schema("""
            <entity name="Cart">
                <relationship name="items" toMany="YES" destinationEntity="Item"/>
            </entity>
            <entity name="Item">
                <attribute name="name" attributeType="String"/>
                <attribute name="quantity" attributeType="Integer 32"/>
                <relationship name="shelf" maxCount="1" destinationEntity="Shelf"/>
            </entity>
            <entity name="Shelf"/>
            """)
        #expect(columns(schema, "ZITEM") == [
            "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZQUANTITY INTEGER", "ZSHELF INTEGER", "Z1ITEMS INTEGER", "ZNAME VARCHAR",
        ])
        #expect(schema.indexes.map(\.createStatement) == [
            "CREATE INDEX ZITEM_ZSHELF_INDEX ON ZITEM (ZSHELF)", "CREATE INDEX ZITEM_Z1ITEMS_INDEX ON ZITEM (Z1ITEMS)",
        ])
        #expect(schema.storage(ofRelationship: "items", ofEntity: "Cart") == .hiddenForeignKey(table: "ZITEM", column: "Z1ITEMS"))
    }

    @Test func sameNamedColumnsOfSiblingEntitiesGetNumericSuffixes() throws {
        let schema = try schema("""
            <entity name="Message"/>
            <entity name="Image" parentEntity="Message"><attribute name="text" attributeType="String"/></entity>
            <entity name="Knock" parentEntity="Message"><attribute name="text" attributeType="String"/></entity>
            <entity name="Text" parentEntity="Message"><attribute name="text" attributeType="String"/></entity>
            """)
        #expect(columns(schema, "ZMESSAGE").suffix(3) == ["ZTEXT VARCHAR", "ZTEXT1 VARCHAR", "ZTEXT2 VARCHAR"])
        #expect(schema.columnName(forProperty: "text", ofEntity: "Text") == "ZTEXT2")
    }

    @Test func indexesAndUniquenessFollowTheFormat() throws {
        let entities = """
            <entity name="Region">
                <attribute name="code" attributeType="Integer 32"/>
                <attribute name="dummy" attributeType="Integer 16"/>
                <attribute name="name" attributeType="String" indexed="YES"/>
                <attribute name="updatedAt" attributeType="Date"/>
                <fetchIndex name="byUpdate"><fetchIndexElement property="updatedAt" type="Binary" order="descending"/></fetchIndex>
                <fetchIndex name="byCode"><fetchIndexElement property="code" type="Binary" order="ascending"/></fetchIndex>
                <compoundIndexes><compoundIndex><index value="name"/><index value="updatedAt"/></compoundIndex></compoundIndexes>
                <uniquenessConstraints><uniquenessConstraint><constraint value="code"/><constraint value="dummy"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """
        let current = try schema(entities)
        #expect(Set(current.indexes.map(\.createStatement)) == [
            "CREATE INDEX Z_Region_code ON ZREGION (ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Region_name ON ZREGION (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_Region_byUpdate ON ZREGION (ZUPDATEDAT COLLATE BINARY DESC)",
            "CREATE INDEX Z_Region_byCode ON ZREGION (ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX ZREGION_ZNAME_ZUPDATEDAT ON ZREGION (ZNAME, ZUPDATEDAT)",
            "CREATE UNIQUE INDEX Z_Region_UNIQUE_code_dummy ON ZREGION (ZCODE COLLATE BINARY ASC, ZDUMMY COLLATE BINARY ASC)",
        ])
        // Framework 637 (iOS 9): no fetch indexes; constraints inside CREATE TABLE.
        let old = try schema(entities.replacingOccurrences(of: #"<fetchIndex name="byUpdate">.*</fetchIndex>"#, with: "",
                                                           options: .regularExpression),
                             format: SQLiteSchemaFormat(frameworkVersion: 637))
        #expect(old.indexes.map(\.createStatement) == [
            "CREATE INDEX ZREGION_ZNAME_INDEX ON ZREGION (ZNAME)",
            "CREATE INDEX ZREGION_ZNAME_ZUPDATEDAT ON ZREGION (ZNAME, ZUPDATEDAT)",
        ])
        #expect(old.table(named: "ZREGION")?.createStatement == "CREATE TABLE ZREGION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, "
            + "Z_OPT INTEGER, ZCODE INTEGER, ZDUMMY INTEGER, ZUPDATEDAT TIMESTAMP, ZNAME VARCHAR, CONSTRAINT ZCODE_ZDUMMY UNIQUE (ZCODE, ZDUMMY))")
    }

    @Test func bookkeepingTablesAreVerbatimAndLast() throws {
        let statements = try schema(#"<entity name="Item"/>"#).createStatements
        #expect(statements == [
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ])
        #expect(try schema(#"<entity name="Item"/>"#, format: .init(frameworkVersion: 519)).createStatements.count == 3)
    }

    @Test func configurationsLimitTheEntities() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><model>
            <entity name="Cache"/><entity name="Note"/>
            <configuration name="Local"><memberEntity name="Note"/></configuration></model>
            """
        let model = try ModelXMLReader.read(data: Data(xml.utf8))
        let schema = try SQLiteSchema(model: model, configuration: "Local")
        #expect(schema.entities.map(\.name) == ["Note"])
        #expect(schema.entity(named: "Note")?.number == 1)
    }

    @Test func modelsTheLayoutCannotHoldAreRefused() throws {
        let attribute = NSCompositeAttributeDescription()
        attribute.name = "location"
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Place", properties: [attribute])]
        #expect(throws: SQLiteSchemaError.self) { try SQLiteSchema(model: model) }
        #expect(throws: SQLiteSchemaError.self) { try schema(#"<entity name="Item"/><entity name="item"/>"#) }
    }
}
