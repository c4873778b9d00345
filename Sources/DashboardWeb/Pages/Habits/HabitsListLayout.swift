import DashboardCore
import HabitsAPI
import Synchronization

/// Everything a browser's `/habits` is composed from but its favourites (issue 46 point 1), made once per data version
/// and page with the page's skeleton: every habit in its category's order with its category, its place by name, and
/// its two rows (a favourite or not) rendered on first use. A request then costs a lookup per favourite and a walk
/// over the habits, with no row, path or key built (the view model per request was most of the page's CPU, perf).
///
/// The order and sections are those of `HabitSection.sections`, which `HabitsListLayoutTests` hold it to.
final class HabitsListLayout: SkeletonLayout {
    /// A section's heading: its title and colour.
    struct Heading: Sendable {
        /// "Favorites" or the category's name.
        let title: String
        /// The heading's colour.
        let color: ColorStyle
    }

    /// The habits in category order (categories in the data's order, then names).
    let habits: [Habit]
    /// Each habit's category, as an index into `categories`.
    let category: [Int]
    /// Each habit's place in name order (where a favourite goes in Favorites).
    let nameRank: [Int]
    /// Places by habit name.
    let places: [String: Int]
    /// The categories' headings.
    let categories: [Heading]
    /// Where the rows' buttons return.
    let returnTo: String
    /// Habits per page, and the page shown.
    let pageSize: Int
    let page: Int
    /// Rows rendered so far: a habit's plain row at its place, its favourite row at `habits.count` past it; and their
    /// bytes, kept within `allowance` (counted up front as the layout's cost, as `ChunkMemo` does).
    private let rows: Mutex<(chunks: [Chunk?], starts: [Int: Chunk], bytes: Int)>
    /// The most bytes of rows kept: every row both ways for the built-in data, a few hundred at 100 times it; past it
    /// a row comes from the card cache each time.
    let allowance: Int

    /// The layout of page `page` of `snapshot`'s habits.
    init(snapshot: Snapshot, page: Int, pageSize: Int = Pager.habitsPerPage, returnTo: String) {
        var byCategory: [String: [Habit]] = [:]
        for habit in snapshot.sortedHabits { byCategory[habit.category.name, default: []].append(habit) }
        let names = byCategory.keys.sorted { snapshot.order.precedes($0, $1) }
        var habits: [Habit] = []
        var category: [Int] = []
        var categories: [Heading] = []
        for (index, name) in names.enumerated() {
            let members = byCategory[name] ?? []
            habits += members
            category += Array(repeating: index, count: members.count)
            categories.append(Heading(title: name, color: ColorStyle(members[0].category.color)))
        }
        let rank = Dictionary(snapshot.sortedHabits.enumerated().map { ($1.name, $0) }) { first, _ in first }
        self.habits = habits
        self.category = category
        self.nameRank = habits.map { rank[$0.name] ?? 0 }
        self.places = Dictionary(habits.enumerated().map { ($1.name, $0) }) { first, _ in first }
        self.categories = categories
        self.returnTo = returnTo
        self.pageSize = pageSize
        self.page = page
        // Section starts are kept beside the rows, by heading (0 for Favorites, 1 + a category's index) and place.
        rows = Mutex((Array(repeating: nil, count: habits.count * 2), [:], 0))
        allowance = min(256 << 10, habits.count * 2 * 1536)
    }

    /// The row of the habit at `place`, as a favourite or not, rendered by `render` on first use.
    func row(_ place: Int, favorite: Bool, render: (HabitRow) throws -> Chunk) rethrows -> Chunk {
        let slot = place + (favorite ? habits.count : 0)
        if let row = rows.withLock({ $0.chunks[slot] }) { return row }
        let row = try render(HabitRow(habit: habits[place], isFavorite: favorite))
        rows.withLock { rows in
            guard rows.bytes + row.cost <= allowance else { return }
            rows.chunks[slot] = row
            rows.bytes += row.cost
        }
        return row
    }

    /// The start of the `index`th section of the page, Favorites (`category` nil) or a category, rendered by `render`
    /// on first use.
    func start(
        category: Int?, index: Int, render: (_ section: HabitSection, _ id: String) throws -> Chunk
    ) rethrows -> Chunk {
        let slot = ((category ?? -1) + 1) * (habits.count + 1) + index
        if let start = rows.withLock({ $0.starts[slot] }) { return start }
        let section =
            category.map {
                HabitSection(
                    title: categories[$0].title, isFavorites: false, color: categories[$0].color, habits: [])
            }
            ?? HabitSection(title: HabitSection.favoritesTitle, isFavorites: true, color: .favorite, habits: [])
        let start = try render(section, "section-\(index)")
        rows.withLock { rows in
            guard rows.bytes + start.cost <= allowance else { return }
            rows.starts[slot] = start
            rows.bytes += start.cost
        }
        return start
    }

    /// One part of a browser's page: where a section starts (with its heading and place on the page), a row, or
    /// where a section ends.
    enum Part: Equatable {
        /// A section starts: Favorites (`category` nil) or a category, the `index`th section of the page.
        case start(category: Int?, index: Int)
        /// The row of the habit at `place`.
        case row(place: Int, favorite: Bool)
        /// The section ends.
        case end
    }

    /// The parts of the page for a browser whose favourites are `favorites`: Favorites first (in name order), then
    /// each category without them, `pageSize` habits a page, a section split between pages on each with its heading.
    func parts(favorites: [String]) -> [Part] {
        var chosen = favorites.compactMap { places[$0] }
        chosen.sort { nameRank[$0] < nameRank[$1] }
        // A favourite named twice (settings files are not trusted to be unique) is shown once.
        chosen = chosen.enumerated().compactMap { $0 > 0 && chosen[$0 - 1] == $1 ? nil : $1 }
        let start = (page - 1) * pageSize
        var parts: [Part] = []
        parts.reserveCapacity(min(pageSize, habits.count) + 2 * categories.count + 2)
        var shown = 0
        var index = 0
        var current: Int?? = .none
        func add(_ place: Int, favorite: Bool, section: Int?) {
            defer { shown += 1 }
            guard shown >= start, shown < start + pageSize else { return }
            if current != .some(section) {
                if current != nil { parts.append(.end) }
                parts.append(.start(category: section, index: index))
                index += 1
                current = .some(section)
            }
            parts.append(.row(place: place, favorite: favorite))
        }
        for place in chosen { add(place, favorite: true, section: nil) }
        var isChosen = [Bool](repeating: false, count: habits.count)
        for place in chosen { isChosen[place] = true }
        for place in habits.indices where !isChosen[place] { add(place, favorite: false, section: category[place]) }
        if current != nil { parts.append(.end) }
        return parts
    }

    /// What the layout may cost a cache: its arrays and the rows it may keep.
    var cost: Int { habits.count * 112 + categories.count * 64 + allowance }
}
