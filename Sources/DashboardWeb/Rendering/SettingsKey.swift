import DashboardCore

/// The part of a render key made from a browser's settings: the SHA-256 of what the page reads of them (through
/// libcrypto), all 256 bits of it. The render cache is shared between browsers, so a key anyone could collide on
/// purpose (the 64-bit FNV digest it replaced, issue 18) would let a crafted browser be served another's page.
struct SettingsKey: Hashable, Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The key of a page that reads no settings.
    static let none = SettingsKey(words: (0, 0, 0, 0))

    private init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    /// The key of a page that reads one yes-or-no setting (a habit page: whether this habit is a favourite).
    init(flag: Bool) { words = (flag ? 1 : 0, 0, 0, 0) }

    /// The SHA-256 of `lists`, each a set of names (order and repeats change no page), length-prefixed so no two
    /// different sets encode alike.
    init(sets lists: [[String]]) {
        self.init(digesting: lists.map { Array(Set($0)).sorted() })
    }

    /// The SHA-256 of `lines` in their order (what a fragment shows, such as the news lines of one browser),
    /// length-prefixed like `init(sets:)`.
    init(sequence lines: [String]) {
        self.init(digesting: [lines])
    }

    private init(digesting lists: [[String]]) {
        var bytes: [UInt8] = []
        for names in lists {
            Self.append(UInt64(names.count), to: &bytes)
            for name in names {
                Self.append(UInt64(name.utf8.count), to: &bytes)
                bytes += name.utf8
            }
        }
        let digest = SHA256Hash.of(bytes)
        words = (
            SHA256Hash.word(digest, 0), SHA256Hash.word(digest, 1), SHA256Hash.word(digest, 2),
            SHA256Hash.word(digest, 3)
        )
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    static func == (lhs: SettingsKey, rhs: SettingsKey) -> Bool { lhs.words == rhs.words }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
