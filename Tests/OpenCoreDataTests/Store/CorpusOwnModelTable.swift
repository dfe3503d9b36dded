import Foundation

/// The rows of ``CorpusOwnModelTests``: each paired corpus store (a prefix of
/// its file name), the model version that wrote it and its object count, or
/// why no corpus model opens it (then the model the store caches reads it, or, for
/// one file not written by Core Data, nothing does). A row matches the store whose file name is
/// the row's name followed by a dot; the model is a file of shared/corpus/models
/// without `.xml`. Counts are objects of every entity, read
/// with `includesSubentities = false` entity by entity.
enum CorpusOwnModelTable {
    static let rows: [(store: String, outcome: CorpusOwnModelTests.Outcome)] = [
        ("Karim-ezzedine__CartKit__Tests_CartKitStorageCoreDataTests_LegacyCoreData_CartStorage_v1", .cached(2,
            "written by an earlier CartStorage model: its Z_MODELCACHE has no CDCart.sessionId or "
                + "promotionKindsJSON, and ZCDCARTITEMMODIFIER keeps the hidden key Z2MODIFIERS of a "
                + "CDCartItem.modifiers without inverse")),
        ("LoopKit__LoopKit__LoopKitHostedTests_TestCoreData_Model.sqlite.v1.original",
         .reads("LoopKit__LoopKit__Model__Model", 7)),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel3_Fixtures_SampleModel3_V1",
         .reads("alemar11__CoreDataPlus__SampleModel3__SampleModel3", 12)),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel_Fixtures_SampleModelV1",
         .reads("alemar11__CoreDataPlus__SampleModel__SampleModel", 145)),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel_Fixtures_SampleModelV2",
         .reads("alemar11__CoreDataPlus__SampleModel__SampleModel2", 145)),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel_Fixtures_SampleModel_V1",
         .reads("alemar11__CoreDataPlus__SampleModel__SampleModel", 145)),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel_Fixtures_SampleModel_V2",
         .reads("alemar11__CoreDataPlus__SampleModel__SampleModel2", 145)),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel_Fixtures__SampleModelV1", .cached(145,
            "written by a SampleModel version without Car.color (its Z_MODELCACHE), absent from the corpus")),
        ("alemar11__CoreDataPlus__Tests_Resources_SampleModel_Fixtures__SampleModelV2",
         .reads("alemar11__CoreDataPlus__SampleModel__SampleModel2", 145)),
        ("artsy__energy__ArtsyFolio_Tests_Migrations_ArtsyPartner_1.3.5",
         .reads("artsy__energy__ArtsyPartner__ArtsyPartner_5", 169)),
        ("artsy__energy__ArtsyFolio_Tests_Migrations_ArtsyPartner_1.3",
         .reads("artsy__energy__ArtsyPartner__ArtsyPartner_5", 2)),
        ("artsy__energy__ArtsyFolio_Tests_Migrations_ArtsyPartner_1.4",
         .reads("artsy__energy__ArtsyPartner__ArtsyFolio_v1.4", 298)),
        ("artsy__energy__ArtsyFolio_Tests_Migrations_ArtsyPartner_1.6",
         .reads("artsy__energy__ArtsyPartner__ArtsyFolio_v1.5", 0)),
        ("artsy__energy__ArtsyFolio_Tests_Migrations_ArtsyPartner_2.0",
         .reads("artsy__energy__ArtsyPartner__ArtsyFolio_v2.0", 0)),
        ("artsy__energy__Resources_CoreData_oss_stubbed_data",
         .reads("artsy__energy__ArtsyPartner__ArtsyFolio_v2.3", 108)),
        ("bandhavivinay__TavantTrade_iPad__Model",
         .reads("bandhavivinay__TavantTrade_iPad__Model__Model", 98)),
        ("duckduckgo__BrowserServicesKit__Tests_BookmarksTests_Resources_Bookmarks_V1",
         .reads("duckduckgo__BrowserServicesKit__BookmarksModel__BookmarksModel", 10)),
        ("duckduckgo__BrowserServicesKit__Tests_BookmarksTests_Resources_Bookmarks_V2",
         .reads("duckduckgo__BrowserServicesKit__BookmarksModel__BookmarksModel_2", 10)),
        ("duckduckgo__BrowserServicesKit__Tests_BookmarksTests_Resources_Bookmarks_V3",
         .reads("duckduckgo__BrowserServicesKit__BookmarksModel__BookmarksModel_3", 10)),
        ("duckduckgo__BrowserServicesKit__Tests_BookmarksTests_Resources_Bookmarks_V4",
         .reads("duckduckgo__BrowserServicesKit__BookmarksModel__BookmarksModel_4", 10)),
        ("duckduckgo__BrowserServicesKit__Tests_BookmarksTests_Resources_Bookmarks_V5",
         .reads("duckduckgo__BrowserServicesKit__BookmarksModel__BookmarksModel_5", 10)),
        ("duckduckgo__BrowserServicesKit__Tests_DDGSyncTests_Resources_SyncMetadata_V3",
         .reads("duckduckgo__BrowserServicesKit__SyncMetadata__SyncMetadata_3", 4)),
        ("hwaxxer__BookMigration__BookMigration_Model1",
         .reads("hwaxxer__BookMigration__Model__Model1", 7)),
        ("jakeBerberich__LPAR-development__Model", .refused(
            "not written by Core Data: back-quoted, untyped columns with Z_PK after the attributes")),
        ("larromba__EasyLife__EasyLifeTests_EasyLife", .cached(158,
            "written by an EasyLife model before TodoItem.project (its Z_MODELCACHE), absent from the corpus")),
        ("larromba__EasyLife__EasyLifeTests_EasyLife_1.3.0", .cached(0,
            "written by an EasyLife model before TodoItem.project (its Z_MODELCACHE), absent from the corpus")),
        ("larromba__EasyLife__EasyLifeTests_EasyLife_1.5.0",
         .reads("larromba__EasyLife__EasyLife__EasyLife_1.5.0", 6)),
        ("mazllia__Find-iTaiwan__Find_iTaiwan_Supporting_Files_prebuild",
         .reads("mazllia__Find-iTaiwan__Find_iTaiwan__Find_iTaiwan", 17927)),
        ("objcio__core-data__Migrations_MigrationsTests_Moody.moody",
         .reads("objcio__core-data__Moody__Moody", 9)),
        ("objcio__core-data__Migrations_MigrationsTests_Moody_2.moody",
         .reads("objcio__core-data__Moody__Moody_2", 9)),
        ("objcio__core-data__Migrations_MigrationsTests_Moody_3.moody",
         .reads("objcio__core-data__Moody__Moody_3", 9)),
        ("objcio__core-data__Migrations_MigrationsTests_Moody_4.moody",
         .reads("objcio__core-data__Moody__Moody_4", 9)),
        ("objcio__core-data__Migrations_MigrationsTests_Moody_5.moody",
         .reads("objcio__core-data__Moody__Moody_5", 7)),
        ("wibosco__CoreDataMigration-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_1",
         .reads("wibosco__CoreDataMigration-Example__CoreDataMigration_Example__CoreDataMigration_Example", 1001)),
        ("wibosco__CoreDataMigration-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_2",
         .reads("wibosco__CoreDataMigration-Example__CoreDataMigration_Example__CoreDataMigration_Example_2", 5979)),
        ("wibosco__CoreDataMigration-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_3",
         .reads("wibosco__CoreDataMigration-Example__CoreDataMigration_Example__CoreDataMigration_Example_3", 15990)),
        ("wibosco__CoreDataMigration-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_WAL",
         .reads("wibosco__CoreDataMigration-Example__CoreDataMigration_Example__CoreDataMigration_Example_4", 168)),
        ("wibosco__CoreDataMigrationRevised-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_1",
         .reads("wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example__CoreDataMigration_Example", 10)),
        ("wibosco__CoreDataMigrationRevised-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_2",
         .reads(
             "wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example__CoreDataMigration_Example_2", 10)),
        ("wibosco__CoreDataMigrationRevised-Example__"
         + "CoreDataMigration-ExampleTests_Resources_SQLite_CoreDataMigration_Example_3",
         .reads(
             "wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example__CoreDataMigration_Example_3", 26)),
    ]

    /// The stores a corpus model file reads, with that model's name (without `.xml`).
    static var storesWithTheirModels: [(store: String, file: URL, model: String)] {
        let files = Corpus.files(in: Corpus.stores, suffix: ".sqlite")
        return rows.compactMap { store, outcome in
            guard case .reads(let model, _) = outcome,
                  let file = files.first(where: { $0.lastPathComponent.hasPrefix(store + ".") }) else { return nil }
            return (store, file, model)
        }
    }
}
