import HabitsAPI

/// A person as a card on the People page.
public struct PersonCard: Hashable, Sendable {
    /// The user's id.
    public var userID: String
    /// The dashboard link to the user.
    public var path: String
    /// Where the card's Follow/Unfollow form posts.
    public var followPath: String
    /// The dashboard URL of the user's profile image.
    public var imagePath: String
    /// The user's name.
    public var name: String
    /// The card colour (neutral when the user has none).
    public var color: ColorStyle
    /// Whether the browser follows this user.
    public var isFollowed: Bool
    /// Whether this is the active user (who cannot usefully follow themselves).
    public var isActiveUser: Bool
    /// The sum of the user's counts (the activity sort).
    public var totalCount: Int
    /// How many habits the user leads (the leading sort).
    public var leadingCount: Int

    /// Creates a card for `user`.
    public init(user: User, isFollowed: Bool, isActiveUser: Bool, totalCount: Int = 0, leadingCount: Int = 0) {
        self.userID = user.id
        self.path = Links.person(user.id)
        self.followPath = Links.personFollow(user.id)
        self.imagePath = Links.image(user.id)
        self.name = user.name
        self.color = ColorStyle(user.color)
        self.isFollowed = isFollowed
        self.isActiveUser = isActiveUser
        self.totalCount = totalCount
        self.leadingCount = leadingCount
    }
}
