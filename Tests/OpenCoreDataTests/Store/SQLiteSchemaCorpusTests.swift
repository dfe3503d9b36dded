import Foundation
import Testing
@testable import OpenCoreData

/// The generated layout against the stores Core Data wrote in the corpus
/// (shared/corpus/stores), each paired with its model file by PAIRING.tsv.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct SQLiteSchemaCorpusTests {
    struct Tally {
        var stores = 0, exactStores = 0, entities = 0, tables = 0, columns = 0, indexes = 0, verbatim = 0
        var entitiesAgreeing = 0, tablesAgreeing = 0, columnsAgreeing = 0, indexesAgreeing = 0, verbatimAgreeing = 0
    }

    /// The stores with an XML model, and the candidate model files, starred ones first.
    static func pairings() throws -> [(store: URL, models: [URL])] {
        guard let stores = Corpus.stores, let models = Corpus.models else { return [] }
        let text = try String(contentsOf: stores.appendingPathComponent("PAIRING.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5 else { return nil }
            let candidates = fields[4].components(separatedBy: "; ").filter { $0.hasSuffix(".xml") }
            let ranked = candidates.filter { $0.hasPrefix("*") } + candidates.filter { !$0.hasPrefix("*") }
            let urls = ranked.map { models.appendingPathComponent(String($0.drop(while: { $0 == "*" }))) }
            return urls.isEmpty ? nil : (stores.appendingPathComponent(fields[0]), urls)
        }
    }

    /// Compares a generated schema with a store dump; returns the differences.
    static func differences(_ schema: SQLiteSchema, _ dump: StoreSchemaDump, tally: inout Tally) -> [String] {
        var diffs: [String] = []
        for entity in schema.entities {
            tally.entities += 1
            guard let stored = dump.entities[entity.name] else { diffs.append("entity \(entity.name) not in Z_PRIMARYKEY"); continue }
            if stored.number == entity.number && stored.superNumber == entity.superNumber {
                tally.entitiesAgreeing += 1
            } else {
                diffs.append("entity \(entity.name): store \(stored.number)/\(stored.superNumber), generated \(entity.number)/\(entity.superNumber)")
            }
        }
        let bookkeeping: Set = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
        let history: Set = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
        let generatedNames = Set(schema.tables.map(\.name))
        for name in dump.tables.keys.sorted() where !generatedNames.contains(name) && !bookkeeping.contains(name) {
            diffs.append(history.contains(name) ? "history table \(name)" : "store-only table \(name)")
        }
        for table in schema.tables {
            tally.tables += 1
            tally.columns += table.columns.count
            guard let stored = dump.tables[table.name] else { diffs.append("generated-only table \(table.name)"); continue }
            let generated = StoreSchemaDump.parseTable(table.createStatement)
            tally.columnsAgreeing += zip(generated.columns, stored.columns).prefix { $0 == $1 }.count
            if generated == stored { tally.tablesAgreeing += 1; continue }
            let render = { (t: StoreSchemaDump.Table) in t.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ") }
            if stored.columns.starts(with: generated.columns, by: ==), generated.primaryKey == stored.primaryKey,
               generated.constraints == stored.constraints {
                let extra = stored.columns.dropFirst(generated.columns.count).map { "\($0.name) \($0.type)" }
                diffs.append("table \(table.name) has appended columns: \(extra.joined(separator: ", "))")
            } else {
                diffs.append("table \(table.name): store (\(render(stored)) \(stored.primaryKey ?? "") \(stored.constraints)) generated (\(render(generated)) \(generated.primaryKey ?? "") \(generated.constraints))")
            }
        }
        let generatedIndexes = Set(schema.indexes.map(\.createStatement))
        tally.indexes += generatedIndexes.count
        tally.indexesAgreeing += generatedIndexes.intersection(dump.indexes).count
        for index in generatedIndexes.subtracting(dump.indexes).sorted() { diffs.append("generated-only index: \(index)") }
        for index in dump.indexes.subtracting(generatedIndexes).sorted() {
            let table = index.components(separatedBy: " ON ").last?.split(separator: " ").first.map(String.init) ?? ""
            diffs.append(history.contains(table) ? "history index on \(table)" : "store-only index: \(index)")
        }
        for statement in schema.createStatements {
            tally.verbatim += 1
            if dump.statements.contains(statement) { tally.verbatimAgreeing += 1 }
        }
        for statement in SQLiteBookkeeping.createStatements(schema.format) where !dump.statements.contains(statement) {
            diffs.append("bookkeeping differs: \(statement)")
        }
        if dump.triggerCount > 0 { diffs.append("\(dump.triggerCount) triggers") }
        return diffs
    }

    @Test func generatedSchemasAgreeWithCoreDataStores() throws {
        var tally = Tally()
        var unexplained: [String] = []
        var usedTolerances = Set<String>()
        for (store, models) in try Self.pairings() {
            let dump = try StoreSchemaDump(store: store)
            let format = SQLiteSchemaFormat(frameworkVersion: dump.frameworkVersion)
            var best: (model: URL, diffs: [String], tally: Tally)?
            for model in models {
                var candidate = Tally()
                let schema = try SQLiteSchema(model: NSManagedObjectModel.load(contentsOf: model), format: format)
                let diffs = Self.differences(schema, dump, tally: &candidate)
                if best == nil || diffs.count < best!.diffs.count {
                    best = (model, diffs, candidate)
                }
            }
            guard let best else { continue }
            tally.stores += 1
            if best.diffs.isEmpty { tally.exactStores += 1 }
            let t = best.tally
            tally.entities += t.entities; tally.entitiesAgreeing += t.entitiesAgreeing
            tally.tables += t.tables; tally.tablesAgreeing += t.tablesAgreeing
            tally.columns += t.columns; tally.columnsAgreeing += t.columnsAgreeing
            tally.indexes += t.indexes; tally.indexesAgreeing += t.indexesAgreeing
            tally.verbatim += t.verbatim; tally.verbatimAgreeing += t.verbatimAgreeing
            let name = store.lastPathComponent
            for diff in best.diffs {
                if let tolerance = Self.tolerated.first(where: { name.contains($0.store) && diff.hasPrefix($0.difference) }) {
                    usedTolerances.insert(tolerance.store + "|" + tolerance.difference)
                } else {
                    unexplained.append("\(name) [\(best.model.lastPathComponent)]: \(diff)")
                }
            }
        }
        print("""
            SQLiteSchema vs Core Data stores: \(tally.exactStores)/\(tally.stores) stores in exact agreement; \
            entities \(tally.entitiesAgreeing)/\(tally.entities), \
            tables \(tally.tablesAgreeing)/\(tally.tables), \
            columns \(tally.columnsAgreeing)/\(tally.columns), \
            indexes \(tally.indexesAgreeing)/\(tally.indexes), \
            statements verbatim \(tally.verbatimAgreeing)/\(tally.verbatim)
            """)
        #expect(unexplained.isEmpty, "\(unexplained.count) unexplained:\n\(unexplained.joined(separator: "\n"))")
        let stale = Self.tolerated.filter { !usedTolerances.contains($0.store + "|" + $0.difference) }
        #expect(stale.isEmpty, "tolerated differences that no longer occur: \(stale.map { "\($0.store): \($0.difference)" })")
    }

    /// Differences between a store and the schema generated from its model
    /// that are explained by how the store came to be, not by a layout rule.
    /// `store` matches part of the store's file name; `difference` is the
    /// start of the reported difference.
    static let tolerated: [(store: String, difference: String, reason: String)] = {
        let cartV1 = "written by an earlier CartStorage model: CDCart had no sessionId/promotionKindsJSON "
            + "and CDCartItem.modifiers no inverse (hence the hidden key Z2MODIFIERS)"
        let sampleV2 = "written by a SampleModel version absent from the corpus: no Car.color or Person.id, "
            + "a byMakerAndNumberPlate fetch index (PAIRING matched the entity names only)"
        let easyLife = "written by an EasyLife model before TodoItem.project existed (not in the corpus); "
            + "PAIRING matched the entity names only"
        return [
            ("CartStorage_v1", "table ZCDCART:", cartV1),
            ("CartStorage_v1", "table ZCDCARTITEMMODIFIER:", cartV1),
            ("CartStorage_v1", "store-only index: CREATE INDEX ZCDCARTITEMMODIFIER_Z2MODIFIERS_INDEX", cartV1),
            ("Fixtures_SampleModelV2.", "table ZCAR:", sampleV2),
            ("Fixtures_SampleModelV2.", "table ZPERSON:", sampleV2),
            ("Fixtures_SampleModelV2.", "store-only index: CREATE INDEX Z_Car_byMakerAndNumberPlate", sampleV2),
            ("Fixtures_SampleModel_V2.", "table ZCAR:", sampleV2),
            ("Fixtures_SampleModel_V2.", "table ZPERSON:", sampleV2),
            ("Fixtures_SampleModel_V2.", "store-only index: CREATE INDEX Z_Car_byMakerAndNumberPlate", sampleV2),
            ("Fixtures__SampleModelV2.", "table ZCAR:", sampleV2),
            ("Fixtures__SampleModelV2.", "table ZPERSON:", sampleV2),
            ("Fixtures__SampleModelV2.", "store-only index: CREATE INDEX Z_Car_byMakerAndNumberPlate", sampleV2),
            ("Fixtures__SampleModelV1.", "table ZCAR:",
             "written by a SampleModel version absent from the corpus, without Car.color"),
            ("oss_stubbed_data", "table Z_3LOCATIONS:",
             "Artwork.locations came with a later model version: migration created Z_3LOCATIONS after Z_3SHOWS "
                + "had taken Z_3ARTWORKS1, so the suffixes are in history order, not in the fresh-store order"),
            ("oss_stubbed_data", "table Z_3SHOWS:", "same as Z_3LOCATIONS: suffixes assigned in migration order"),
            ("LPAR-development", "table ZLPARENTITY:",
             "not written by Core Data: back-quoted, untyped columns with Z_PK after the attributes (another SQLite tool)"),
            ("EasyLife.sqlite", "table ZTODOITEM:", easyLife),
            ("EasyLife.sqlite", "generated-only index: CREATE INDEX ZTODOITEM_ZPROJECT_INDEX", easyLife),
            ("EasyLife_1.3.0.sqlite", "table ZTODOITEM:", easyLife),
            ("EasyLife_1.3.0.sqlite", "generated-only index: CREATE INDEX ZTODOITEM_ZPROJECT_INDEX", easyLife),
        ]
    }()
}
