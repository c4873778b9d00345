import DashboardCore
import HTTPCore

/// The 421 `SiteGuard` answers a request for a host this dashboard is not served at (issues 20 and 48). Over https it
/// carries `Strict-Transport-Security` like every other answer there: a browser that first meets the site through a
/// mistyped name still learns to use TLS.
struct MisdirectedRequest: HTTPResponseError, ErrorResponseHeaders, Equatable {
    /// Whether the request came over https (`SitePolicy.scheme(of:peer:)`).
    var overHTTPS: Bool

    var status: HTTPStatus { .misdirectedRequest }
    var publicMessage: String { "This dashboard is not served at this address." }
    var responseHeaders: [(name: String, value: String)] {
        overHTTPS ? [("Strict-Transport-Security", SecurityFields.strictTransportSecurity)] : []
    }
}
