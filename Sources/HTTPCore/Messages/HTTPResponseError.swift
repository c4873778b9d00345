/// An error a handler means the user to see: the server answers with `status` and `publicMessage`.
///
/// Anything else a handler throws is logged and answered with a generic 500 that reveals nothing. It lives here,
/// beside `HTTPStatus`, so a library that is not a server (HabitsAPI) can say how its errors should be answered.
public protocol HTTPResponseError: Error {
    /// The status to answer with.
    var status: HTTPStatus { get }
    /// A short, plain message safe to show to anyone.
    var publicMessage: String { get }
}
