/// A habit category. Two categories are the same when their names are (as in the app).
public struct Category: Codable, Hashable, Sendable {
    /// The unique name.
    public var name: String
    /// The header colour.
    public var color: Color

    /// Creates a category.
    public init(name: String, color: Color) {
        self.name = name
        self.color = color
    }

    public static func == (lhs: Category, rhs: Category) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
