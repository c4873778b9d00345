import Synchronization

/// The personal parts of render keys (`RenderKey.digest(of:)` of a browser's settings, favourites and follows),
/// computed once per settings content instead of on every request: each costs a set, a sort and a hash of every
/// name, a visible share of a cached page's CPU time (issue 9).
///
/// Keyed by the settings' own digest (`Versioned.digest`, SHA-256 of the file's bytes), so a changed file gets new
/// digests and equal files share them. Bounded: past `capacity` entries the memo starts over.
final class PersonalDigests: Sendable {
    /// The three digests of one browser's settings.
    struct Digests: Equatable, Sendable {
        /// Of the whole settings (pages showing favourites and follows).
        var all: UInt64
        /// Of the favourite habits only.
        var favorites: UInt64
        /// Of the followed people only.
        var follows: UInt64
    }

    /// Most settings contents remembered.
    let capacity: Int
    private let memo = Mutex<[UInt64: Digests]>([:])

    /// An empty memo.
    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The digests of `settings`, from the memo when its content was seen before.
    func of(_ settings: Versioned<Settings>) -> Digests {
        if let known = memo.withLock({ $0[settings.digest] }) { return known }
        let digests = Digests(
            all: RenderKey.digest(of: settings.value), favorites: RenderKey.digest(of: settings.value.favoriteHabits),
            follows: RenderKey.digest(of: settings.value.followedUserIDs))
        memo.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[settings.digest] = digests
        }
        return digests
    }

    /// How many contents are remembered (for tests).
    var count: Int { memo.withLock { $0.count } }
}
