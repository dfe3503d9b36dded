import Foundation
import Testing
@testable import OpenCoreDataCore

/// Damaged property lists end in an error, never in a crash (issue 19): the
/// store fuzz target found a keyed archive, stored as a transformable value,
/// whose one flipped byte made its `$classes` array a set (`0xA2` → `0xC1`);
/// Foundation on Linux crashed bridging it.
@Suite struct UntrustedPropertyListTests {
    /// The fuzzer's archive, cut out of its store file: an NSDictionary archive with `$classes` marked as a set.
    static let archiveWithASet = Data(hex: [
        "62706c6973743030d4010203040508091d5424746f705924617263686976657258246f626a6563747358247665727369",
        "6f6ed1060754726f6f7480015f100f4e534b657965644172636869766572a50a0b14151655246e756c6cd30c0d0e0f10",
        "125624636c6173735a4e532e6f626a65637473574e532e6b6579738004a1118003a1138002516b1000d21718191c5824",
        "636c61737365735a24636c6173736e616d65c11a1b5c4e5344696374696f6e617279584e534f626a6563745c4e534469",
        "6374696f6e61727912000186a0081116202932353a3c4e545a6168737b7d7f81838587898e97a2a5b2bbc80000000000",
        "000101000000000000001e000000000000000000000000000000cd",
    ].joined())

    @Test func aSetInABinaryPropertyListIsAnError() throws {
        #expect(UntrustedPropertyList.holdsSetsOrIsDamaged(Self.archiveWithASet))
        #expect(throws: CocoaError(.propertyListReadCorrupt)) {
            try UntrustedPropertyList.propertyList(from: Self.archiveWithASet)
        }
        // The transformer that read it in the fuzzed store now gives nil, as for any damaged archive.
        #expect(NSKeyedUnarchiveFromDataTransformer().transformedValue(Self.archiveWithASet) == nil)
    }

    @Test func intactPropertyListsAndArchivesRead() throws {
        let value: [String: Any] = ["k": [1, 2.5, "three", Data([4]), true, Date(timeIntervalSinceReferenceDate: 5)]]
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let data = try PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)
            #expect(!UntrustedPropertyList.holdsSetsOrIsDamaged(data))
            let read = try #require(try UntrustedPropertyList.propertyList(from: data) as? [String: Any])
            #expect((read["k"] as? [Any])?.count == 6)
        }
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["a": "b"] as NSDictionary,
                                                       requiringSecureCoding: false)
        #expect(!UntrustedPropertyList.holdsSetsOrIsDamaged(archive))
        let read = NSKeyedUnarchiveFromDataTransformer().transformedValue(archive) as? NSDictionary
        #expect(read?["a"] as? String == "b")
    }

    @Test func damagedTrailersAreErrors() throws {
        let good = try PropertyListSerialization.data(fromPropertyList: ["x": 1], format: .binary, options: 0)
        #expect(UntrustedPropertyList.holdsSetsOrIsDamaged(Data("bplist00".utf8)))
        #expect(UntrustedPropertyList.holdsSetsOrIsDamaged(good.prefix(good.count - 1)))
        for position in (good.count - 32)..<good.count {
            var damaged = good
            damaged[position] ^= 0xFF
            // Either refused here or left to Foundation, which then reads or throws: never a crash.
            if !UntrustedPropertyList.holdsSetsOrIsDamaged(damaged) {
                _ = try? UntrustedPropertyList.propertyList(from: damaged)
            }
        }
    }
}

private extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
