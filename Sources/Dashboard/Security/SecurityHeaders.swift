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
public struct SecurityHeaders<Next: HTTPResponder>: HTTPResponder {
    /// The policy sent with every HTML response.
    public static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }

    /// The responder whose answers get the headers.
    public let next: Next

    /// Wraps `next`.
    public init(_ next: Next) { self.next = next }

    public func respond(to request: Request, context: RequestContext) async throws -> Response {
        var response = try await next.respond(to: request, context: context)
        Self.apply(to: &response)
        return response
    }

    public func respondAtOnce(to request: Request, context: RequestContext) throws -> Response? {
        guard var response = try next.respondAtOnce(to: request, context: context) else { return nil }
        Self.apply(to: &response)
        return response
    }

    /// Adds the headers to one response (also used on error pages built outside `next`).
    public static func apply(to response: inout Response) {
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        if response.status == .notModified {
            // A 304 carries what the 200 would have that caches must update (RFC 9110 §15.4.5): Cache-Control, and
            // nothing about content, so no policy headers. An unchanged live poll stays under 300 bytes (issue 9).
            if !response.headers.contains("Cache-Control") {
                response.headers.add(name: "Cache-Control", value: "no-store")
            }
            return
        }
        let isHTML = response.headers["Content-Type"].map(Self.isHTML) ?? false
        guard isHTML else { return }
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        if !response.headers.contains("Cache-Control") {
            response.headers.add(name: "Cache-Control", value: "no-store")
        }
    }

    /// Whether a Content-Type is `text/html` (any case, any parameters), compared as bytes without a lowercased copy.
    static func isHTML(_ contentType: String) -> Bool {
        let prefix = "text/html".utf8
        guard contentType.utf8.count >= prefix.count else { return false }
        // `prefix` is lowercase: a byte matches it as it is, or as the uppercase of one of its letters.
        return zip(contentType.utf8, prefix).allSatisfy { byte, expected in
            byte == expected || (expected >= 0x61 && expected <= 0x7A && byte == expected - 0x20)
        }
    }
}
