import Testing

@testable import Dashboard

@Suite struct PersonalDigestsTests {
    func versioned(_ settings: Settings, digest: UInt64) -> Versioned<Settings> {
        Versioned(value: settings, version: 1, digest: digest)
    }

    @Test func digestsAreTheRenderKeyDigestsOfTheSettings() {
        let settings = Settings(favoriteHabits: ["Yoga", "Tai chi"], followedUserIDs: ["user1"])
        let digests = PersonalDigests().of(versioned(settings, digest: 7))
        #expect(digests.all == RenderKey.digest(of: settings))
        #expect(digests.favorites == RenderKey.digest(of: settings.favoriteHabits))
        #expect(digests.follows == RenderKey.digest(of: settings.followedUserIDs))
    }

    @Test func aChangedContentGetsNewDigests() {
        let memo = PersonalDigests()
        let before = memo.of(versioned(Settings(favoriteHabits: ["Yoga"]), digest: 1))
        let after = memo.of(versioned(Settings(favoriteHabits: ["Yoga", "Running"]), digest: 2))
        #expect(before.favorites != after.favorites)
        #expect(memo.of(versioned(Settings(favoriteHabits: ["Yoga"]), digest: 1)) == before)
    }

    @Test func theMemoStaysWithinItsCapacity() {
        let memo = PersonalDigests(capacity: 3)
        for digest in 0..<10 { _ = memo.of(versioned(Settings(), digest: UInt64(digest))) }
        #expect(memo.count <= 3)
    }
}
