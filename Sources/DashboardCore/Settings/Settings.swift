/// One browser's choices: favourite habits (by name) and followed people (by id), in the order they were toggled.
///
/// Stored as `{"favoriteHabits": [...], "followedUserIDs": [...]}` (SPEC §7). Names and ids that no longer exist
/// upstream stay here untouched; the view models simply skip them, so a habit that comes back is a favourite again.
public struct Settings: Codable, Equatable, Sendable {
    /// Favourite habit names, oldest toggle first.
    public var favoriteHabits: [String]
    /// Followed user ids, oldest toggle first.
    public var followedUserIDs: [String]

    /// Creates settings.
    public init(favoriteHabits: [String] = [], followedUserIDs: [String] = []) {
        self.favoriteHabits = favoriteHabits
        self.followedUserIDs = followedUserIDs
    }

    /// No favourites, no follows: what a browser without a settings cookie sees.
    public static let `default` = Settings()

    /// Whether `habitName` is a favourite.
    public func isFavorite(_ habitName: String) -> Bool { favoriteHabits.contains(habitName) }

    /// Whether the user with `userID` is followed.
    public func isFollowed(_ userID: String) -> Bool { followedUserIDs.contains(userID) }

    /// Adds `habitName` at the end of the favourites, or removes every copy of it if it is already there.
    public mutating func toggleFavorite(_ habitName: String) {
        Self.toggle(habitName, in: &favoriteHabits)
    }

    /// Adds `userID` at the end of the follows, or removes every copy of it if it is already there.
    public mutating func toggleFollow(_ userID: String) {
        Self.toggle(userID, in: &followedUserIDs)
    }

    private static func toggle(_ value: String, in list: inout [String]) {
        if list.contains(value) {
            list.removeAll { $0 == value }
        } else {
            list.append(value)
        }
    }

    enum CodingKeys: String, CodingKey {
        case favoriteHabits
        case followedUserIDs
    }

    /// Decodes settings; a missing list reads as empty so a file written by an older version still loads.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        favoriteHabits = try container.decodeIfPresent([String].self, forKey: .favoriteHabits) ?? []
        followedUserIDs = try container.decodeIfPresent([String].self, forKey: .followedUserIDs) ?? []
    }
}
