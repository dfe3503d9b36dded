import Testing
@testable import OpenCoreDataCore

/// NSSortDescriptor: key paths through to-one relationships, several
/// descriptors, nil ordering, the NSString comparison selectors, comparators,
/// and sorting arrays of KeyValueCoding objects and dictionaries (SEED-000 and
/// SEED-002 sort by `name` and by `creationDate` descending).
@Suite struct SortDescriptorTests {
    static let people: [Record] = [Fixtures.matthew, Fixtures.jane, Fixtures.ben, Fixtures.eve]

    private func names(_ records: [Record]) -> [String] { records.map { $0.values["firstName"] as? String ?? "?" } }

    @Test func sortsByOneKey() {
        #expect(names(Self.people.sorted(using: [NSSortDescriptor(key: "age", ascending: true)])) == ["Ben", "Matthew", "Jane", "Eve"])
        #expect(names(Self.people.sorted(using: [NSSortDescriptor(key: "age", ascending: false)])) == ["Eve", "Jane", "Matthew", "Ben"])
        // `compare:` on strings is case-sensitive: "ben" sorts after the capitalised names.
        let byName = NSSortDescriptor(key: "name", ascending: true)
        #expect(names(Self.people.sorted(using: [byName])) == ["Eve", "Jane", "Matthew", "Ben"])
        let caseless = NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))
        #expect(names(Self.people.sorted(using: [caseless])) == ["Ben", "Eve", "Jane", "Matthew"])
    }

    @Test func sortsByKeyPathThroughToOne() {
        let a = Record(["name": "a", "owner": Record(["name": "zed"])])
        let b = Record(["name": "b", "owner": Record(["name": "amy"])])
        let c = Record(["name": "c", "owner": nil])
        let sorted = [a, b, c].sorted(using: [NSSortDescriptor(key: "owner.name", ascending: true)])
        #expect(sorted.map { $0.values["name"] as? String } == ["c", "b", "a"])  // nil first
    }

    @Test func laterDescriptorsBreakTiesAndSortIsStable() {
        let rows: [[String: Any]] = [
            ["dept": "b", "age": 30, "id": 1], ["dept": "a", "age": 40, "id": 2], ["dept": "b", "age": 20, "id": 3],
            ["dept": "a", "age": 40, "id": 4], ["dept": "a", "age": 10, "id": 5],
        ]
        let sorted = rows.sorted(using: [NSSortDescriptor(key: "dept", ascending: true), NSSortDescriptor(key: "age", ascending: false)])
        #expect(sorted.map { $0["id"] as? Int } == [2, 4, 5, 1, 3])
    }

    @Test func nilSortsFirstAscendingAndLastDescending() {
        let rows: [[String: Any]] = [["v": 2], ["v": NSNull()], [:], ["v": 1]]
        #expect(rows.sorted(using: [NSSortDescriptor(key: "v", ascending: true)]).map { $0["v"] as? Int } == [nil, nil, 1, 2])
        #expect(rows.sorted(using: [NSSortDescriptor(key: "v", ascending: false)]).map { $0["v"] as? Int } == [2, 1, nil, nil])
    }

    @Test func mixedNumberTypesAndDates() {
        let rows: [[String: Any]] = [["v": 2.5], ["v": Int16(1)], ["v": NSNumber(value: 3)], ["v": UInt8(2)]]
        let sorted = rows.sorted(using: [NSSortDescriptor(key: "v", ascending: true)])
        #expect(sorted.map { "\($0["v"]!)" } == ["1", "2", "2.5", "3"])
        let dates: [[String: Any]] = [["d": Date(timeIntervalSinceReferenceDate: 5)], ["d": Date(timeIntervalSinceReferenceDate: 1)]]
        let newestFirst = dates.sorted(using: [NSSortDescriptor(key: "d", ascending: false)])
        #expect((newestFirst.first?["d"] as? Date)?.timeIntervalSinceReferenceDate == 5)
    }

    @Test func localizedSelectors() {
        let words: [[String: Any]] = [["w": "file10"], ["w": "File2"], ["w": "file1"]]
        let standard = NSSortDescriptor(key: "w", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(words.sorted(using: [standard]).map { $0["w"] as? String } == ["file1", "File2", "file10"])
        for name in ["compare:", "localizedCompare:", "localizedCaseInsensitiveCompare:"] {
            let d = NSSortDescriptor(key: "w", ascending: true, selector: Selector(name))
            #expect(words.sorted(using: [d]).count == 3)
        }
    }

    @Test func comparatorDescriptor() {
        let byLength = NSSortDescriptor(key: nil, ascending: true) { a, b in
            let x = (a as? String)?.count ?? 0, y = (b as? String)?.count ?? 0
            return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        }
        #expect(["ccc", "a", "bb"].sorted(using: [byLength]) == ["a", "bb", "ccc"])
        #expect(byLength.selector == nil)
    }

    @Test func compareReversedAndEquality() throws {
        let d = NSSortDescriptor(key: "age", ascending: true)
        #expect(d.compare(Fixtures.ben, to: Fixtures.eve) == .orderedAscending)
        #expect(d.compare(Fixtures.eve, to: Fixtures.ben) == .orderedDescending)
        #expect(d.compare(Fixtures.ben, to: Fixtures.ben) == .orderedSame)
        let reversed = try #require(d.reversedSortDescriptor as? NSSortDescriptor)
        #expect(!reversed.ascending && reversed.key == "age")
        #expect(reversed.compare(Fixtures.ben, to: Fixtures.eve) == .orderedDescending)
        #expect(d == NSSortDescriptor(key: "age", ascending: true, selector: Selector("compare:")))
        #expect(d != reversed)
        #expect((d.copy() as? NSSortDescriptor) == d)
        #expect(d.selector?.name == "compare:")
        d.allowEvaluation()
    }

    @Test func foundationCollections() {
        let array = NSArray(array: [["n": 3], ["n": 1], ["n": 2]])
        let sorted = array.sortedArray(using: [NSSortDescriptor(key: "n", ascending: true)])
        #expect(sorted.compactMap { ($0 as? [String: Int])?["n"] } == [1, 2, 3])
        let mutable = NSMutableArray(array: [["n": 3], ["n": 1]])
        mutable.sort(using: [NSSortDescriptor(key: "n", ascending: false)])
        #expect((mutable[0] as? [String: Int])?["n"] == 3)
        var people = Self.people
        people.sort(using: [NSSortDescriptor(key: "salary", ascending: true)])
        #expect(names(people) == ["Ben", "Matthew", "Jane", "Eve"])
        #expect(Self.people.sorted(using: []).count == 4)
    }

    @Test func unsupportedSelectorStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = NSSortDescriptor(key: "a", ascending: true, selector: Selector("frobnicate:"))
        }
    }
}
