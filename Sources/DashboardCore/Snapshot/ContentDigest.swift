import HabitsAPI
import Hashing

/// A 128-bit digest of content (two independent FNV-1a lanes, `FNV1a.Wide`), for versions and cache keys.
///
/// Not cryptographic: it tells one upstream answer or one browser's settings from another, where a collision would
/// at worst show one stale page until the next change. It hashes every field (the models' `==` compare ids only, so
/// they cannot tell a renamed user from the old one), with a length before every string so `["ab"]` and `["a","b"]`
/// differ. The few calls a warm page makes through it (its render key's content, `PageDeclaration`) are
/// `@inlinable`, so they still inline across the module boundary (issue 45).
public struct ContentDigest: Hashable, Sendable {
    @usableFromInline var lanes = FNV1a.Wide()

    /// An empty digest.
    @inlinable public init() {}

    /// The digest as one 64-bit value (both lanes folded), for cache keys and ETags.
    @inlinable public var value: UInt64 { lanes.folded }

    /// Feeds one byte.
    @inlinable @inline(__always) mutating func feed(byte: UInt8) { lanes.feed(byte: byte) }

    /// Feeds an integer (its eight bytes).
    @inlinable public mutating func feed(_ value: Int) {
        var bits = UInt64(bitPattern: Int64(value))
        for _ in 0..<8 {
            feed(byte: UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// Feeds a double by its bit pattern.
    mutating func feed(_ value: Double) { feed(Int(bitPattern: UInt(value.bitPattern))) }

    /// Feeds a string: its UTF-8 length, then its bytes.
    mutating func feed(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            feed(bytes.count)
            for byte in bytes { feed(byte: byte) }
        }
    }

    /// Feeds an optional string, distinguishing nil from "".
    mutating func feed(_ text: String?) {
        if let text {
            feed(byte: 1)
            feed(text)
        } else {
            feed(byte: 0)
        }
    }

    /// Feeds a list of strings, in order.
    mutating func feed(_ list: [String]) {
        feed(list.count)
        for text in list { feed(text) }
    }
}

// MARK: - Models

extension ContentDigest {
    /// Feeds a colour.
    mutating func feed(_ color: Color?) {
        guard let color else { return feed(byte: 0) }
        feed(byte: 1)
        feed(color.hue)
        feed(color.saturation)
        feed(color.brightness)
    }

    /// Feeds every field of a user.
    mutating func feed(_ user: User) {
        feed(user.id)
        feed(user.name)
        feed(user.color)
        feed(user.bio)
    }

    /// Feeds every field of a category.
    mutating func feed(_ category: Category) {
        feed(category.name)
        feed(category.color)
    }

    /// Feeds every field of a habit.
    mutating func feed(_ habit: Habit) {
        feed(habit.name)
        feed(habit.category)
        feed(habit.info)
    }

    /// Feeds both kinds of statistics, in the order the upstream sent them.
    mutating func feed(_ statistics: CombinedStatistics) {
        feed(statistics.userStatistics.count)
        for entry in statistics.userStatistics {
            feed(entry.user)
            feed(entry.habitCounts.count)
            for count in entry.habitCounts {
                feed(count.habit)
                feed(count.count)
            }
        }
        feed(statistics.habitStatistics.count)
        for entry in statistics.habitStatistics {
            feed(entry.habit)
            feed(entry.userCounts.count)
            for count in entry.userCounts {
                feed(count.user)
                feed(count.count)
            }
        }
    }

    /// The digest of the reference data: users, habits and categories (dictionaries in key order).
    static func reference(users: [String: User], habits: [String: Habit], categories: [Category]) -> ContentDigest {
        var digest = ContentDigest()
        digest.feed(users.count)
        for (_, user) in users.sorted(by: { $0.key < $1.key }) { digest.feed(user) }
        digest.feed(habits.count)
        for (_, habit) in habits.sorted(by: { $0.key < $1.key }) { digest.feed(habit) }
        digest.feed(categories.count)
        for category in categories { digest.feed(category) }
        return digest
    }

    /// The digest of the statistics.
    static func statistics(_ statistics: CombinedStatistics) -> ContentDigest {
        var digest = ContentDigest()
        digest.feed(statistics)
        return digest
    }
}
