import HTTPCore
import HTTPServer

/// Adds the security headers every response needs, so no handler can forget them.
///
/// On HTML: the Content-Security-Policy of issue 5 (no inline script or style anywhere, so an escaping bug cannot
/// run code), `Referrer-Policy: same-origin`, and `Cache-Control: no-store` because our pages are personalised
/// (favourites, follows) and must not be kept by shared caches. `X-Content-Type-Options: nosniff` on everything
/// (the server adds it too, on answers that never reach here).
///
/// Errors that get past `ErrorPages` (machine-facing paths: fragments, images, static files) become a plain-text
/// answer whose body is only the status's reason phrase. A handler's public message may quote the request (a
/// `/fragments/people/<id>` 404 said "There is nobody with the id “<id>”"), and a reflected string is no business
/// of a response nobody reads as a page (issue 8); `live.js` only needs the status.
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
        var response: Response
        do {
            response = try await next.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            if error.status.code >= 500 {
                context.logger.error(
                    "handler failed", ["error": String(describing: error), "http.status": "\(error.status.code)"])
            }
            response = .text(error.status.reason, status: error.status)
        }
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
