import Foundation

/// The one encoding of settings both backends store, compare and digest (issue 45: the database's store no longer
/// borrows the file store's): JSON with sorted keys, so equal values are equal bytes and a hand-formatted file
/// digests like the store's own. The one cache budget both stores' copies in memory share is here too.
enum SettingsCodec {
    /// The canonical bytes of `value`.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(value))
    }

    /// The byte budget of a store's copies in memory (issue 23): tens of thousands of typical browsers fit (issue 46:
    /// at 2 MiB and 10 000 copies, a crowd of 10 000 browsers read most of their settings from the store again, and a
    /// page cost 100 µs instead of 25), and however large the settings, it holds no more.
    static var cacheBudgetBytes: Int { 8 << 20 }

    /// The most copies a store keeps in memory, whatever their size.
    static var cacheCapacity: Int { 40_000 }
}
