import DashboardCore
import HTTPCore
import HTTPServer

/// Adds the security headers every response needs, so no handler can forget them.
///
/// On HTML: the Content-Security-Policy of issue 5 (no inline script or style anywhere, so an escaping bug cannot
/// run code), `Referrer-Policy: same-origin`, and `Cache-Control: no-store` because our pages are personalised
/// (favourites, follows) and must not be kept by shared caches. `X-Content-Type-Options: nosniff` on everything
/// (the server adds it too, on answers that never reach here).
///
/// Errors have become answers before they get here (`ErrorAnswers`), so every answer, error or not, gets the headers.
/// The fields and the rule are `SecurityFields`'.
public struct SecurityHeaders<Next: HTTPResponder>: HTTPResponder {
    /// The policy sent with every HTML response.
    public static var contentSecurityPolicy: String { SecurityFields.contentSecurityPolicy }

    /// The responder whose answers get the headers.
    public let next: Next

    /// Wraps `next`.
    public init(_ next: Next) { self.next = next }

    public func respond(to request: Request, context: RequestContext) throws -> Answer {
        try next.respond(to: request, context: context).map { response in
            var response = response
            Self.apply(to: &response)
            return response
        }
    }

    /// Adds the headers to one response (also used on error pages built outside `next`); a cached page's 200
    /// already holds them (`SecurityFields.areApplied`) and is left as it is.
    public static func apply(to response: inout Response) { SecurityFields.apply(to: &response) }

    /// Whether a Content-Type is `text/html` (any case, any parameters).
    static func isHTML(_ contentType: String) -> Bool { SecurityFields.isHTML(contentType) }
}
