import HabitsAPI

/// What the Habits page shows: Favorites first (if any), then a section per category with habits (SPEC §5).
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct HabitsListPage: Equatable, Sendable {
    /// The sections in display order.
    public var sections: [HabitSection]

    /// Builds the page from the upstream habits and the browser's settings.
    public init(habits: [String: Habit], settings: Settings) {
        self.init(snapshot: Snapshot(inputs: SnapshotInputs(habits: habits)), settings: settings)
    }

    /// Builds the page from a snapshot's habits (already in name order).
    public init(snapshot: Snapshot, settings: Settings) {
        sections = HabitSection.sections(snapshot: snapshot, settings: settings)
    }
}
