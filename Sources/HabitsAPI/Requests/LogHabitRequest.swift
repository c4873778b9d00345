import Foundation

/// `POST /loggedHabit`: logs one habit event.
public struct LogHabitRequest: APIRequest {
    /// Nothing: a 2xx is success.
    public typealias Response = Void
    /// The event.
    public var loggedHabit: LoggedHabit
    /// Creates the request.
    public init(_ loggedHabit: LoggedHabit) { self.loggedHabit = loggedHabit }
    public var endpoint: Endpoint { .logHabit }
    public var path: String { "/loggedHabit" }

    /// The event as JSON; `LoggedHabit` encodes only strings, which cannot fail to encode.
    public var postBody: [UInt8]? {
        do {
            return try Array(JSONEncoder().encode(loggedHabit))
        } catch {
            preconditionFailure("LoggedHabit holds only strings; encoding cannot fail: \(error)")
        }
    }

    /// Ignores the body: the API answers 200 with a short text.
    public func decode(_ response: HTTPClientResponse) throws(HabitsAPIError) {}
}
