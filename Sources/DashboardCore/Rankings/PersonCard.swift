import HabitsAPI

/// A person as a card on the People page.
public struct PersonCard: Hashable, Sendable {
    /// The user's id.
    public var userID: String
    /// The dashboard link to the user. The links are made from the id when asked for, not with the card: a new
    /// version's People makes every card to look its HTML up in the card cache, where building three links a card
    /// was a seventh of the render (perf), and only a card not found renders them.
    public var path: String { Links.person(userID) }
    /// Where the card's Follow/Unfollow form posts.
    public var followPath: String { Links.personFollow(userID) }
    /// The dashboard URL of the user's profile image.
    public var imagePath: String { Links.image(userID) }
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
        self.name = user.name
        self.color = ColorStyle(user.color)
        self.isFollowed = isFollowed
        self.isActiveUser = isActiveUser
        self.totalCount = totalCount
        self.leadingCount = leadingCount
    }
}
