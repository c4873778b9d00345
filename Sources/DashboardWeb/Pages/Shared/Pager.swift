import DashboardCore

/// One page of a long list (issue 21 point 4: no page past 128 KB however large the data): People's cards, a habit's
/// members and the habits of Habits and Log Habit are shown `size` at a time, `?page=N` choosing which; the built-in
/// data fits on one page, which then has no navigation at all.
///
/// A pure value. A `?page=` that is not a page number is a 400 and one past the last page a 404 (`parse`, `init`):
/// bad input gets a clear 4xx, as a mistyped `?range=` or `?sort=` does, never a silently different page.
public struct Pager: Equatable, Sendable {
    /// The page shown, 1-based.
    public let number: Int
    /// How many pages the list has (at least 1: an empty list is one empty page).
    public let count: Int
    /// Items per page.
    public let size: Int
    /// Items in the whole list.
    public let total: Int

    /// People's cards per page: about 62 KB of cards, half the bound.
    public static let peoplePerPage = 100
    /// A habit's members per page: about 35 KB of rows.
    public static let membersPerPage = 100
    /// Habits per page of Habits (about 56 KB of rows with their Favorite buttons) and of Log Habit (about 31 KB of
    /// buttons): at 100 times the built-in data the whole lists were 1.07 MB and 597 KB.
    public static let habitsPerPage = 100
    /// The largest page number a URL may name (more digits are malformed, whatever the list).
    static let maxNumber = 999_999

    /// Page `number` of a list of `total` items, `size` a page; nil when there is no such page (past the last).
    public init?(number: Int, total: Int, size: Int) {
        let size = max(1, size)
        let count = Self.pageCount(total, size: size)
        guard (1...count).contains(number) else { return nil }
        self.number = number
        self.count = count
        self.size = size
        self.total = max(0, total)
    }

    /// How many pages `total` items fill at `size` a page: at least 1.
    public static func pageCount(_ total: Int, size: Int) -> Int {
        max(1, (max(0, total) + max(1, size) - 1) / max(1, size))
    }

    /// The page number a `page` query value names: absent means 1; anything but a number 1…999999 written in plain
    /// digits without a leading zero is nil (a 400), so each page has one URL and one render key.
    public static func parse(_ value: String?) -> Int? {
        guard let value else { return 1 }
        let digits = value.utf8
        guard (1...6).contains(digits.count), digits.first != UInt8(ascii: "0"),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(value)
        else { return nil }
        return number
    }

    /// Whether the list needs navigation at all.
    public var isPaged: Bool { count > 1 }

    /// The positions of this page's items in the list.
    public var range: Range<Int> {
        let start = (number - 1) * size
        return start..<min(total, start + size)
    }

    /// This page's items of `items` (the whole list).
    func slice<Element>(_ items: [Element]) -> ArraySlice<Element> {
        items[range.clamped(to: items.indices)]
    }

    /// The page numbers the navigation links to, in order, nil for a gap ("…"): the first and last pages, and two on
    /// each side of this one, so a list of thousands of pages still has a short navigation.
    public var shownNumbers: [Int?] {
        let window = Set([1, count] + Array(max(1, number - 2)...min(count, number + 2)))
        var shown: [Int?] = []
        for page in window.sorted() {
            if let last = shown.last ?? nil, page > last + 1 { shown.append(nil) }
            shown.append(page)
        }
        return shown
    }

    /// The query pair of page `number` in a URL: none for the first page (its URL is the list's own).
    static func query(_ number: Int) -> String { number == 1 ? "" : "page=\(number)" }
}
