/// `GET /habits`: every habit keyed by name.
public struct HabitsRequest: APIRequest {
    /// Habits keyed by name.
    public typealias Response = [String: Habit]
    /// Creates the request.
    public init() {}
    public var endpoint: Endpoint { .habits }
    public var path: String { "/habits" }
}
