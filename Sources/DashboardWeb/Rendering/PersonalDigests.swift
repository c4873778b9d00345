import DashboardCore
import Synchronization

/// The settings parts of render keys (`SettingsKey`s of a browser's favourites and follows, each list and both),
/// computed once per settings content instead of on every request: each costs a set, a sort and a SHA-256 of every
/// name, a visible share of a cached page's CPU time (issue 9).
///
/// Keyed by the settings' own digest (`Versioned.digest`, SHA-256 of the file's bytes), so a changed file gets new
/// keys and equal files share them. Bounded: past `capacity` contents the least recently used is forgotten.
final class PersonalDigests: Sendable {
    /// The three keys of one browser's settings.
    struct Digests: Equatable, Sendable {
        /// Of the whole settings (pages showing favourites and follows).
        var all: SettingsKey
        /// Of the favourite habits only.
        var favorites: SettingsKey
        /// Of the followed people only.
        var follows: SettingsKey

        /// The keys of `settings`.
        init(_ settings: Settings) {
            all = SettingsKey(sets: [settings.favoriteHabits, settings.followedUserIDs])
            favorites = SettingsKey(sets: [settings.favoriteHabits])
            follows = SettingsKey(sets: [settings.followedUserIDs])
        }
    }

    private let memo: Mutex<LRUCache<UInt64, Digests>>

    /// An empty memo of at most `capacity` contents.
    init(capacity: Int = 4096) { memo = Mutex(LRUCache(capacity: capacity)) }

    /// The keys of `settings`, from the memo when its content was seen before.
    func of(_ settings: Versioned<Settings>) -> Digests {
        if let known = memo.withLock({ $0.value(for: settings.digest) }) { return known }
        let digests = Digests(settings.value)
        memo.withLock { _ = $0.set(digests, for: settings.digest) }
        return digests
    }

    /// How many contents are remembered (for tests).
    var count: Int { memo.withLock { $0.count } }
}
