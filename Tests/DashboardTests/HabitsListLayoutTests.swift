import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// A browser's composed `/habits` has the sections and rows of its view model (`HabitSection.sections`), whatever
/// its favourites and page: the layout made once per version must agree with the page built per browser.
@Suite struct HabitsListLayoutTests {
    /// The sections `parts` describe: (title, isFavorites, id, names and favourite flags).
    struct Shown: Equatable {
        var title: String
        var isFavorites: Bool
        var id: String
        var rows: [String]
    }

    func shown(_ layout: HabitsListLayout, favorites: [String]) -> [Shown] {
        var sections: [Shown] = []
        for part in layout.parts(favorites: favorites) {
            switch part {
            case .start(let category, let index):
                sections.append(
                    Shown(
                        title: category.map { layout.categories[$0].title } ?? HabitSection.favoritesTitle,
                        isFavorites: category == nil, id: "section-\(index)", rows: []))
            case .row(let place, let favorite):
                sections[sections.count - 1].rows.append((favorite ? "★" : "") + layout.habits[place].name)
            case .end:
                break
            }
        }
        return sections
    }

    func expected(_ snapshot: Snapshot, favorites: [String], page: Int, size: Int) -> [Shown] {
        let sections =
            HabitSection.sections(
                snapshot: snapshot, settings: Settings(favoriteHabits: favorites), page: page, size: size)?.sections
            ?? []
        return sections.enumerated().map { index, section in
            Shown(
                title: section.title, isFavorites: section.isFavorites, id: "section-\(index)",
                rows: section.habits.map { ($0.isFavorite ? "★" : "") + $0.name })
        }
    }

    /// 23 habits in three categories named out of order, so category order, name order and pages all differ.
    static let snapshot: Snapshot = {
        let categories = ["Zeta", "Alpha", "Mid"].map { Category(name: $0, color: Fixture.exercise.color) }
        let habits = (0..<23).map { index in
            Habit(name: "H\(String(100 + (index * 7) % 23).dropFirst())", category: categories[index % 3], info: "")
        }
        return Snapshot(inputs: SnapshotInputs(habits: Dictionary(uniqueKeysWithValues: habits.map { ($0.name, $0) })))
    }()

    @Test(arguments: [
        [], ["H05"], ["H22", "H00", "H05", "H05"], ["gone", "H10"], (0..<23).map { "H\(String(100 + $0).dropFirst())" },
    ])
    func everyPageHasTheViewModelsSectionsAndRows(favorites: [String]) {
        for size in [5, 10, 100] {
            for page in 1...(23 + size - 1) / size {
                let layout = HabitsListLayout(snapshot: Self.snapshot, page: page, pageSize: size, returnTo: "/habits")
                #expect(
                    shown(layout, favorites: favorites)
                        == expected(Self.snapshot, favorites: favorites, page: page, size: size),
                    "page \(page) of \(size)")
            }
        }
    }
}
