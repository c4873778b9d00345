import TestSupport

/// The shared fake upstream over this target's `Fixture`.
extension FakeHabitsAPI {
    /// A fake serving `Fixture`.
    convenience init() { self.init(data: Fixture.data) }
}
