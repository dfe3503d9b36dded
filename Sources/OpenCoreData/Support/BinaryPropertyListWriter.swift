import Foundation

extension BinaryPropertyList {
    /// `value` as a binary property list (`bplist00`) that Foundation's and
    /// Core Data's readers read back to the same values; nil when `value`
    /// holds something this writer leaves to `PropertyListSerialization`.
    ///
    /// Why not `PropertyListSerialization`: on Linux it bridges every value
    /// to a Foundation object first; writing a new store's metadata that way
    /// cost ~6.3M instructions the first time in a process, more than the
    /// rest of creating the store. This writes the bytes in two passes over
    /// the values, O(size).
    ///
    /// Written here: Swift strings, data, dates, Booleans, integers of up to
    /// 64 bits (unsigned ones up to 32), doubles, arrays and dictionaries with
    /// string keys (their keys in sorted order, so equal dictionaries make
    /// equal bytes), and `NSNumber`s of those kinds. Left to Foundation (nil):
    /// floats and unsigned integers above `Int64.max` (which it writes in
    /// formats of their own), `UInt` and `UInt64` values, Foundation's other
    /// classes (`NSString`, `NSArray`, `NSDecimalNumber`, …), non-string keys,
    /// and nesting deeper than `maximumDepth`.
    static func encode(_ value: Any) -> Data? {
        var writer = Writer()
        guard writer.add(value, depth: 0) != nil else { return nil }
        return writer.finish()
    }

    /// `value` as a binary property list: written by ``encode(_:)``, or by
    /// `PropertyListSerialization` for what that leaves to Foundation (whose
    /// errors this throws).
    static func data(_ value: Any) throws -> Data {
        try encode(value) ?? PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    private struct Writer {
        /// One object of the list: its bytes in `leaves`, or a container's references.
        enum Object {
            case leaf(Range<Int>)
            case array([Int])
            case dictionary(keys: [Int], values: [Int])
        }

        var objects: [Object] = []
        /// The encoded bytes of every leaf object, one after another.
        var leaves: [UInt8] = []

        /// The class of Foundation's Boolean numbers (`NSNumber(value: true)`),
        /// which alone among numbers are written as Booleans.
        static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

        /// Adds `value` and what it holds; returns its index, nil for what Foundation must write.
        ///
        /// Types are told apart by identity and class checks before any cast: a cast that may bridge (a
        /// dictionary to `NSNumber`, say) looks for conformances the type lacks, and the first such lookup
        /// for a type scans every conformance loaded (~400k instructions).
        mutating func add(_ value: Any, depth: Int) -> Int? {
            let type = Swift.type(of: value)
            switch ObjectIdentifier(type) {
            case ObjectIdentifier(String.self): return leaf { $0.append(string: value as! String) }
            case ObjectIdentifier(Data.self): return leaf { $0.append(data: value as! Data) }
            case ObjectIdentifier(Date.self):
                return leaf { $0.append(real: (value as! Date).timeIntervalSinceReferenceDate, marker: 0x33) }
            case ObjectIdentifier(Bool.self): return leaf { $0.leaves.append(value as! Bool ? 0x09 : 0x08) }
            case ObjectIdentifier(Int.self): return leaf { $0.append(integer: Int64(value as! Int)) }
            case ObjectIdentifier(Int64.self): return leaf { $0.append(integer: value as! Int64) }
            case ObjectIdentifier(Int32.self): return leaf { $0.append(integer: Int64(value as! Int32)) }
            case ObjectIdentifier(Int16.self): return leaf { $0.append(integer: Int64(value as! Int16)) }
            case ObjectIdentifier(UInt32.self): return leaf { $0.append(integer: Int64(value as! UInt32)) }
            case ObjectIdentifier(UInt16.self): return leaf { $0.append(integer: Int64(value as! UInt16)) }
            case ObjectIdentifier(UInt8.self): return leaf { $0.append(integer: Int64(value as! UInt8)) }
            case ObjectIdentifier(Double.self): return leaf { $0.append(real: value as! Double, marker: 0x23) }
            default: break
            }
            // Of Foundation's classes, numbers (what its reader makes); strings, data, dates and
            // collections as objects are its own business.
            if type is AnyObject.Type { return (value as? NSNumber).flatMap { add($0) } }
            guard depth < BinaryPropertyList.maximumDepth else { return nil }
            if let dictionary = value as? [String: Any] {
                return container { $0.add(dictionary.sorted { $0.key < $1.key }, depth: depth) }
            }
            if let dictionary = value as? [AnyHashable: Any] {
                var entries: [(key: String, value: Any)] = []
                entries.reserveCapacity(dictionary.count)
                for (key, value) in dictionary {
                    guard let key = key.base as? String else { return nil }
                    entries.append((key, value))
                }
                return container { $0.add(entries.sorted { $0.key < $1.key }, depth: depth) }
            }
            if let array = value as? [Any] {
                return container { writer in
                    var elements: [Int] = []
                    elements.reserveCapacity(array.count)
                    for element in array {
                        guard let index = writer.add(element, depth: depth + 1) else { return nil }
                        elements.append(index)
                    }
                    return .array(elements)
                }
            }
            return nil
        }

        /// A number by its kind: Foundation's Boolean class, then its C type. Subclasses
        /// (`NSDecimalNumber`) are Foundation's business.
        mutating func add(_ number: NSNumber) -> Int? {
            let kind = ObjectIdentifier(type(of: number))
            if kind == Self.booleanClass {
                return leaf { $0.leaves.append(number.boolValue ? 0x09 : 0x08) }
            }
            guard kind == ObjectIdentifier(NSNumber.self) else { return nil }
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
                return leaf { $0.append(integer: number.int64Value) }
            case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
                let unsigned = number.uint64Value
                guard unsigned <= UInt64(Int64.max) else { return nil }
                return leaf { $0.append(integer: Int64(unsigned)) }
            case UInt8(ascii: "d"): return leaf { $0.append(real: number.doubleValue, marker: 0x23) }
            default: return nil
            }
        }

        /// The entries of a dictionary, keys first as the format lists them.
        mutating func add(_ entries: [(key: String, value: Any)], depth: Int) -> Object? {
            var keys: [Int] = [], values: [Int] = []
            keys.reserveCapacity(entries.count)
            values.reserveCapacity(entries.count)
            for entry in entries {
                keys.append(leaf { $0.append(string: entry.key) })
                guard let value = add(entry.value, depth: depth + 1) else { return nil }
                values.append(value)
            }
            return .dictionary(keys: keys, values: values)
        }

        /// A leaf object whose bytes `write` appends to `leaves`.
        mutating func leaf(_ write: (inout Writer) -> Void) -> Int {
            let start = leaves.count
            write(&self)
            objects.append(.leaf(start..<leaves.count))
            return objects.count - 1
        }

        /// A container: its index is taken before its contents are added.
        mutating func container(_ contents: (inout Writer) -> Object?) -> Int? {
            let index = objects.count
            objects.append(.array([]))
            guard let object = contents(&self) else { return nil }
            objects[index] = object
            return index
        }

        /// ASCII as bytes, anything else as big-endian UTF-16, as the format has it.
        mutating func append(string: String) {
            let utf8 = string.utf8
            if utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: utf8.count)
                leaves.append(contentsOf: utf8)
            } else {
                let units = string.utf16
                appendMarker(0x60, count: units.count)
                for unit in units { Self.appendBigEndian(UInt64(unit), size: 2, to: &leaves) }
            }
        }

        mutating func append(data: Data) {
            appendMarker(0x40, count: data.count)
            leaves.append(contentsOf: data)
        }

        mutating func append(integer: Int64) { Self.appendInteger(integer, to: &leaves) }

        mutating func append(real: Double, marker: UInt8) {
            leaves.append(marker)
            Self.appendBigEndian(real.bitPattern, size: 8, to: &leaves)
        }

        mutating func appendMarker(_ marker: UInt8, count: Int) { Self.appendMarker(marker, count: count, to: &leaves) }

        /// An integer as Foundation writes it: unsigned in 1, 2 or 4 bytes when
        /// it fits, else the 8-byte signed form.
        static func appendInteger(_ integer: Int64, to bytes: inout [UInt8]) {
            let size = integer < 0 || integer > Int64(UInt32.max) ? 8 : byteCount(UInt64(integer))
            bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
            appendBigEndian(UInt64(bitPattern: integer), size: size, to: &bytes)
        }

        /// A marker with a count in its low nibble, or in the integer after it from 15 up.
        static func appendMarker(_ marker: UInt8, count: Int, to bytes: inout [UInt8]) {
            if count < 15 {
                bytes.append(marker | UInt8(count))
            } else {
                bytes.append(marker | 0x0F)
                appendInteger(Int64(count), to: &bytes)
            }
        }

        /// The header, the objects in index order, the offset table and the trailer.
        func finish() -> Data {
            let referenceSize = Self.byteCount(UInt64(objects.count - 1))
            var bytes = Array("bplist00".utf8)
            bytes.reserveCapacity(leaves.count + objects.count * (referenceSize * 2 + 8) + 40)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(bytes.count)
                switch object {
                case .leaf(let range): bytes.append(contentsOf: leaves[range])
                case .array(let elements):
                    Self.appendContainer(0xA0, elements.count, [elements], referenceSize, to: &bytes)
                case .dictionary(let keys, let values):
                    Self.appendContainer(0xD0, keys.count, [keys, values], referenceSize, to: &bytes)
                }
            }
            let tableOffset = bytes.count
            let offsetSize = Self.byteCount(UInt64(tableOffset))
            for offset in offsets { Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &bytes) }
            bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
            for field in [objects.count, 0, tableOffset] { Self.appendBigEndian(UInt64(field), size: 8, to: &bytes) }
            return Data(bytes)
        }

        /// A container's marker and count, then its lists of references.
        static func appendContainer(_ marker: UInt8, _ count: Int, _ lists: [[Int]], _ referenceSize: Int,
                                    to bytes: inout [UInt8]) {
            appendMarker(marker, count: count, to: &bytes)
            for list in lists {
                for reference in list { appendBigEndian(UInt64(reference), size: referenceSize, to: &bytes) }
            }
        }

        /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
        static func byteCount(_ value: UInt64) -> Int {
            value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        }

        static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
    }
}
