import Synchronization

/// How many times a settings store's copies in memory were stored, replaced or dropped (`SettingsBackend.copyChanges`),
/// for both stores.
///
/// Counted after the change, with release ordering, and read with acquire ordering: a loop that reads the new count
/// also sees the copy it counts, so an answer made from the old copy is never filed under the new count.
struct CopyChangeCount: ~Copyable, Sendable {
    private let count = Atomic<UInt64>(0)

    /// The count now.
    var value: UInt64 { count.load(ordering: .acquiring) }

    /// Counts a change already made.
    func counted() { count.add(1, ordering: .releasing) }
}
