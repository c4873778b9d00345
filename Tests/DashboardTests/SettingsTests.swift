import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SettingsTests {
    @Test func defaultHasNothing() {
        #expect(Settings.default.favoriteHabits.isEmpty)
        #expect(Settings.default.followedUserIDs.isEmpty)
    }

    @Test func togglingKeepsTheOrderOfToggling() {
        var settings = Settings.default
        settings.toggleFavorite("Yoga")
        settings.toggleFavorite("Apple")
        settings.toggleFavorite("Read")
        settings.toggleFavorite("Apple")
        settings.toggleFavorite("Apple")
        #expect(settings.favoriteHabits == ["Yoga", "Read", "Apple"])
        settings.toggleFollow("user9")
        settings.toggleFollow("user1")
        settings.toggleFollow("user9")
        #expect(settings.followedUserIDs == ["user1"])
        #expect(settings.isFavorite("Read"))
        #expect(!settings.isFollowed("user9"))
    }

    @Test func encodesWithTheAgreedKeys() throws {
        let settings = Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user1"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(settings), as: UTF8.self)
        #expect(json == #"{"favoriteHabits":["Yoga"],"followedUserIDs":["user1"]}"#)
        #expect(try JSONDecoder().decode(Settings.self, from: Data(json.utf8)) == settings)
    }

    @Test func decodesAMissingListAsEmpty() throws {
        let settings = try JSONDecoder().decode(Settings.self, from: Data(#"{"favoriteHabits":["Yoga"]}"#.utf8))
        #expect(settings == Settings(favoriteHabits: ["Yoga"], followedUserIDs: []))
    }

    @Test func rejectsAListOfTheWrongType() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Settings.self, from: Data(#"{"favoriteHabits":"Yoga"}"#.utf8))
        }
    }
}
