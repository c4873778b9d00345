import DashboardCore
import HTTPCore

/// A request carried two settings cookies that both verify but name different browsers (`SignedCookieChoice`): one was
/// set by someone else, so the change is refused rather than saved into either browser's settings (issue 48 point 2).
public struct ConflictingCookies: HTTPResponseError, Equatable {
    /// Creates the error.
    public init() {}

    public var status: HTTPStatus { .badRequest }
    public var publicMessage: String {
        "Your browser sent two different settings cookies for this site, so your change was not saved: one of them "
            + "was not set by this dashboard. Please clear this site's cookies and try again."
    }
}
