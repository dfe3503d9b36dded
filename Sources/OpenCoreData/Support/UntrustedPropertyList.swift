import Foundation

/// Property lists read from files and stores, which may be damaged.
///
/// Foundation on Linux stops the program (a null pointer in Swift's cast
/// machinery) when it bridges a binary property list holding a set whose
/// members it can't make sense of; one flipped byte of a keyed archive (an
/// array marker `0xA2` read as a set `0xC1`) was enough (found by the
/// store fuzz target, issue 19). Sets (`0xC`) and ordered sets (`0xB`) are
/// reserved in the binary format and no property-list writer, Apple's
/// included, produces them, so data holding one is refused as damaged before
/// Foundation reads it.
enum UntrustedPropertyList {
    /// The property list in `data`; throws Foundation's error, or
    /// `CocoaError(.propertyListReadCorrupt)` (3840) for a binary property
    /// list that is damaged or holds a set. O(bytes).
    static func propertyList(from data: Data) throws -> Any {
        guard !holdsSetsOrIsDamaged(data) else { throw CocoaError(.propertyListReadCorrupt) }
        return try PropertyListSerialization.propertyList(from: data, format: nil)
    }

    /// Whether `data`, when it is a binary property list (`bplist00`), has a
    /// trailer or offset table pointing outside it or an object marked as a
    /// set or ordered set. Other formats are left to Foundation.
    static func holdsSetsOrIsDamaged(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("bplist00".utf8)) else { return false }
        let trailerStart = bytes.count - 32
        guard trailerStart >= 8 else { return true }
        func integer(at start: Int, size: Int) -> Int? { BinaryPropertyList.integer(bytes, at: start, size: size) }
        let offsetSize = Int(bytes[trailerStart + 6])
        guard let objects = integer(at: trailerStart + 8, size: 8),
              let table = integer(at: trailerStart + 24, size: 8),
              (1...8).contains(offsetSize), table >= 8, table <= trailerStart,
              objects <= (trailerStart - table) / offsetSize else { return true }
        for index in 0..<objects {
            guard let offset = integer(at: table + index * offsetSize, size: offsetSize),
                  offset >= 8, offset < table else { return true }
            let kind = bytes[offset] >> 4
            if kind == 0xB || kind == 0xC { return true }
        }
        return false
    }
}
