import DashboardCore
import HabitsAPI

/// One Home "Following" row: a followed user and the message about how they are doing (SPEC §5).
public struct FollowingRow: Hashable, Sendable {
    /// The user's id.
    public var userID: String
    /// The dashboard link to the user.
    public var userPath: String
    /// The user's name.
    public var name: String
    /// The user's colour (neutral when they have none).
    public var color: ColorStyle
    /// The whole message, exactly as SPEC §5 words it.
    public var message: String
    /// The habit the message names, if any, so it can be a link.
    public var habitName: String?
    /// The dashboard link to `habitName`.
    public var habitPath: String?
    /// The message text before the habit name (the whole message when there is no habit).
    public var messagePrefix: String
    /// The message text after the habit name (empty when there is no habit).
    public var messageSuffix: String
    /// The latest time within the day this person passed the active user or was passed by them (issue 22 point 3).
    public var moment: MomentLine?

    /// Creates a row; `message` is `messagePrefix + habitName + messageSuffix`.
    public init(user: User, messagePrefix: String, habitName: String?, messageSuffix: String) {
        self.userID = user.id
        self.userPath = Links.person(user.id)
        self.name = user.name
        self.color = ColorStyle(user.color)
        self.habitName = habitName
        self.habitPath = habitName.map(Links.habit)
        self.messagePrefix = messagePrefix
        self.messageSuffix = messageSuffix
        self.message = messagePrefix + (habitName ?? "") + messageSuffix
    }

    /// The message for a followed user who has logged nothing.
    public static let nothingYetMessage =
        "This user doesn't seem to have done much yet. Check in to see if they need any help getting started."
}
