import DashboardCore
import HabitsAPI

/// What the Habits page shows: Favorites first (if any), then a section per category with habits (SPEC §5), paged
/// when there are more than `Pager.habitsPerPage` habits (`?page=N`).
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct HabitsListPage: Equatable, Sendable {
    /// The sections of the page shown, in display order.
    public var sections: [HabitSection]
    /// Which page of the habits is shown; nil when `page` was past the last (a 404).
    public var pager: Pager?

    /// Builds the page from the upstream habits and the browser's settings.
    public init(habits: [String: Habit], settings: Settings) {
        self.init(snapshot: Snapshot(inputs: SnapshotInputs(habits: habits)), settings: settings)
    }

    /// Builds page `page` from a snapshot's habits (already in name order), `pageSize` habits a page.
    public init(snapshot: Snapshot, settings: Settings, page: Int = 1, pageSize: Int = Pager.habitsPerPage) {
        let shown = HabitSection.sections(snapshot: snapshot, settings: settings, page: page, size: pageSize)
        sections = shown?.sections ?? []
        pager = shown?.pager
    }
}
