import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct PersonalDigestsTests {
    func versioned(_ settings: Settings, digest: UInt64) -> Versioned<Settings> {
        Versioned(value: settings, version: 1, digest: digest)
    }

    @Test func digestsAreTheSettingsKeysOfEachListAndBoth() {
        let settings = Settings(favoriteHabits: ["Yoga", "Tai chi"], followedUserIDs: ["user1"])
        let digests = PersonalDigests().of(versioned(settings, digest: 7))
        #expect(digests.all == SettingsKey(sets: [["Tai chi", "Yoga", "Yoga"], ["user1"]]))
        #expect(digests.favorites == SettingsKey(sets: [["Yoga", "Tai chi"]]))
        #expect(digests.follows == SettingsKey(sets: [["user1"]]))
        #expect(digests.favorites != digests.follows && digests.all != digests.favorites)
    }

    /// Length-prefixed: a name cannot pass for two names, nor a favourite for a follow.
    @Test func keysOfDifferentSetsDiffer() {
        #expect(SettingsKey(sets: [["ab"]]) != SettingsKey(sets: [["a", "b"]]))
        #expect(SettingsKey(sets: [["a"], []]) != SettingsKey(sets: [[], ["a"]]))
        #expect(SettingsKey(sets: [["Yoga", "Run", "Yoga"]]) == SettingsKey(sets: [["Run", "Yoga"]]))
        #expect(SettingsKey(sets: [[]]) != .none)
    }

    @Test func aChangedContentGetsNewDigests() {
        let memo = PersonalDigests()
        let before = memo.of(versioned(Settings(favoriteHabits: ["Yoga"]), digest: 1))
        let after = memo.of(versioned(Settings(favoriteHabits: ["Yoga", "Running"]), digest: 2))
        #expect(before.favorites != after.favorites)
        #expect(memo.of(versioned(Settings(favoriteHabits: ["Yoga"]), digest: 1)) == before)
    }

    /// It stores what it is given (a memo that stores nothing would pass a bound alone) and never holds more than
    /// its capacity.
    @Test func theMemoKeepsWhatItComputedWithinItsCapacity() {
        let memo = PersonalDigests(capacity: 3)
        _ = memo.of(versioned(Settings(), digest: 0))
        _ = memo.of(versioned(Settings(), digest: 1))
        #expect(memo.count == 2)
        _ = memo.of(versioned(Settings(), digest: 1))
        #expect(memo.count == 2, "a repeated settings digest is found, not stored twice")
        for digest in 2..<10 { _ = memo.of(versioned(Settings(), digest: UInt64(digest))) }
        #expect(memo.count == 3, "the three most recent are kept")
    }
}
