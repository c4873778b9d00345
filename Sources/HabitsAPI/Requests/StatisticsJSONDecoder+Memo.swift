import Foundation

/// Taking an entry of the answer from the previous answer's (`StatisticsDecodeMemo`) instead of decoding it.
///
/// Why a hit is never stale: the memo holds only entries that decoded, and a JSON object is self-delimiting, so when
/// the bytes at `offset` begin with an entry's bytes, the value there is that entry, byte for byte, and decodes to the
/// same value. Nothing here checks the bytes: a miss decodes them (and so checks them), a hit equals bytes checked
/// before.
extension StatisticsJSONDecoder {
    typealias EntryBytes = StatisticsDecodeMemo.EntryBytes

    /// What to do with the entry at `offset`.
    enum Reuse<Value> {
        /// It is `previous`'s entry at this place (`offset` has moved past it).
        case reused(Value, place: Int)
        /// Decode it; the next entry is looked for at `cursor`.
        case decode(cursor: Int)
    }

    /// Whether the entry at `offset` is one of `previous`'s. Tried first at `cursor`, one comparison: entries that
    /// did not change come in the same order. Then, unless the entry after it is `previous`'s next (this one changed
    /// in place, as one event upstream changes one), by its bytes up to the end of the object, looked up: an entry
    /// added, removed or moved.
    mutating func reusedEntry<Value>(
        _ previous: inout StatisticsDecodeMemo.Entries<Value>, from cursor: Int
    ) -> Reuse<Value> {
        guard !previous.isEmpty else { return .decode(cursor: cursor) }
        if cursor < previous.count, startsWith(previous.bytes[cursor].bytes, at: offset) {
            offset += previous.bytes[cursor].bytes.count
            return .reused(previous.values[cursor], place: cursor)
        }
        guard let end = objectEnd() else { return .decode(cursor: cursor) }
        var next = end
        while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ",")].contains(bytes[next]) { next += 1 }
        if cursor + 1 < previous.count, startsWith(previous.bytes[cursor + 1].bytes, at: next) {
            return .decode(cursor: cursor + 1)
        }
        if cursor + 1 == previous.count, next < bytes.count, bytes[next] == UInt8(ascii: "]") {
            return .decode(cursor: cursor + 1)
        }
        guard let place = previous.place(of: EntryBytes(array[offset..<end])) else { return .decode(cursor: cursor) }
        offset = end
        return .reused(previous.values[place], place: place)
    }

    /// Whether the bytes at `start` begin with `entry`.
    private func startsWith(_ entry: ArraySlice<UInt8>, at start: Int) -> Bool {
        guard bytes.count - start >= entry.count, let base = bytes.baseAddress else { return false }
        return entry.withUnsafeBytes { memcmp(base + start, $0.baseAddress!, $0.count) == 0 }
    }

    /// Where the object at `offset` ends if it is one, found by counting brackets outside strings (no check of
    /// anything else); nil when the bytes there are not an object or end first.
    private func objectEnd() -> Int? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var index = offset
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
            }
            index += 1
        }
        return nil
    }
}
