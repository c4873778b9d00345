/// A person on the network. Identified by id (as in the app); colour and bio may be absent or `null`.
public struct User: Codable, Hashable, Comparable, Sendable {
    /// The unique id, e.g. `user0` or `activeUser`.
    public var id: String
    /// The display name.
    public var name: String
    /// The profile colour, if any.
    public var color: Color?
    /// A short biography, if any.
    public var bio: String?

    /// Creates a user.
    public init(id: String, name: String, color: Color? = nil, bio: String? = nil) {
        self.id = id
        self.name = name
        self.color = color
        self.bio = bio
    }

    public static func == (lhs: User, rhs: User) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    /// Users sort by name, then id so the order is total.
    public static func < (lhs: User, rhs: User) -> Bool { (lhs.name, lhs.id) < (rhs.name, rhs.id) }

    /// The id of the active (logging) user: the dashboard's "You".
    public static let activeUserID = "activeUser"
}
