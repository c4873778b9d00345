import DashboardCore
import Synchronization
import TemplateKit

/// Rendered cards by what they show (issue 21 point 2: a new version where one person changed re-renders one card).
///
/// A page's cards (People's person cards, Home's leaderboard cards and Following rows) are rendered one at a time from
/// a partial and kept under a key made of everything the card reads (`CardKey`: the card's own value and the page's
/// fields it uses). A new data version renders only the cards whose content changed; the rest are copied from here.
/// Keys are the values themselves, compared in full, so no digest can make one card pass for another.
///
/// Bounded in bytes through `LRUCache` (issue 23: every cache has a budget, reported in `/metrics` as `cards`).
final class CardCache: Sendable {
    private let memo: Mutex<LRUCache<Slot, Chunk>>
    private let onRender: (@Sendable (CardKey) -> Void)?

    /// The dashboard's budget: every card of the built-in data in each of its variants many times over, and two
    /// pages of 100 cards of a hundred times the data.
    static let defaultBudget = 1 << 20

    /// What an entry costs besides its HTML: the key's strings and the table's slot.
    static let entryOverhead = 256

    /// An empty cache of at most `budget` bytes; `onRender` is told of every card rendered (tests count them).
    init(budget: Int = CardCache.defaultBudget, onRender: (@Sendable (CardKey) -> Void)? = nil) {
        memo = Mutex(LRUCache(capacity: max(1, budget / Self.entryOverhead), budgetBytes: budget))
        self.onRender = onRender
    }

    /// The byte budget.
    var budget: Int { memo.withLock { $0.budgetBytes } }
    /// Bytes held now.
    var bytes: Int { memo.withLock { $0.bytes } }
    /// Cards held now.
    var count: Int { memo.withLock { $0.count } }

    /// A card as a template's value (its links under the path prefix once the page around it is) or as a composed
    /// page's chunk (under the prefix already, issue 46 point 1): two renderings wherever a prefix is set.
    private struct Slot: Hashable {
        let key: CardKey
        let isChunk: Bool
    }

    /// The HTML of the card `key`, rendered by `render` when it is not held.
    func html(_ key: CardKey, render: () throws -> [UInt8]) rethrows -> String {
        String(decoding: try held(Slot(key: key, isChunk: false), render: render).bytes, as: UTF8.self)
    }

    /// The card `key` as a chunk of a composed page, rendered by `render` (links under the prefix) when not held.
    func chunk(_ key: CardKey, render: () throws -> [UInt8]) rethrows -> Chunk {
        try held(Slot(key: key, isChunk: true), render: render)
    }

    private func held(_ slot: Slot, render: () throws -> [UInt8]) rethrows -> Chunk {
        if let held = memo.withLock({ $0.value(for: slot) }) { return held }
        onRender?(slot.key)
        let chunk = Chunk(try render())
        // Only a composed page's chunks grow gzip pieces beside their bytes.
        let bytes = slot.isChunk ? chunk.cost : chunk.bytes.count
        memo.withLock { _ = $0.set(chunk, for: slot, cost: bytes + Self.entryOverhead + slot.key.extraBytes) }
        return chunk
    }
}

/// Everything one card reads, and so its place in `CardCache`.
enum CardKey: Hashable, Sendable {
    /// A People card, on a page whose forms return to `returnTo`, in `sort` order (which decides the stat shown).
    case person(PersonCard, returnTo: String, sort: PeopleSort)
    /// A Home leaderboard card: its ranking lines, sparkline and latest change of leader are all in it.
    case leaderboard(LeaderboardCard)
    /// A Home Following row: the message and the latest moment are in it.
    case following(FollowingRow)
    /// A row of the Habits page, whose favourite button returns to `returnTo`.
    case habitRow(HabitRow, returnTo: String)
    /// The start of a section of the Habits page: `<section>`, its heading, the list's opening tag.
    case habitSectionStart(title: String, isFavorites: Bool, colorClass: String, id: String)
    /// The end of a section of the Habits page.
    case habitSectionEnd
}

extension CardKey {
    /// What the key holds beyond `CardCache.entryOverhead`, so the budget counts it: a leaderboard card keeps its trend's
    /// samples (an hour of 10 s slots is 360, about 6 KB, more than its HTML) and every tied leader's line.
    var extraBytes: Int {
        switch self {
        case .person, .following, .habitRow, .habitSectionStart, .habitSectionEnd: 0
        case .leaderboard(let card):
            (card.trend?.samples.count ?? 0) * MemoryLayout<Int?>.stride + card.leaders.count * Self.lineBytes
        }
    }

    /// A ranking line's strings (text, name, id, link), about.
    private static let lineBytes = 128
}

extension PageRenderer {
    /// `items` rendered one by one through `template` and `cards`, joined: what a page puts where its list goes.
    func cards<Item>(
        _ items: some Sequence<Item>, template: String, key: (Item) -> CardKey, value: (Item) -> TemplateValue
    ) throws -> TemplateValue {
        var html = ""
        for item in items {
            html += try cards.html(key(item)) { try templates.render(template, value(item)) }
        }
        return .trustedHTML(html)
    }

    /// The card `key` as a chunk of a composed page: `template` rendered with `value`, links under the prefix.
    func chunk(_ key: CardKey, template: String, value: () -> TemplateValue) throws -> Chunk {
        try cards.chunk(key) { try fragmentBytes(template, value()) }
    }
}
