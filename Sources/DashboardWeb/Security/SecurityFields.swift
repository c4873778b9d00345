import DashboardCore
import HTTPCore
import HTTPServer

/// The security fields themselves, which `SecurityHeaders` adds to every answer and a render-cache entry puts in the
/// fields of its 200 once (`RenderCache.Entry.htmlFields`), so a warm page's answer does not get them one by one
/// (issue 21). Not generic, so the policy is one stored string rather than one built per answer.
enum SecurityFields {
    /// The policy sent with every HTML response (issue 5).
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// `Strict-Transport-Security` for answers over https: a year, the usual lifetime; no `includeSubDomains`, since
    /// other hosts under the name are not ours to bind.
    static let strictTransportSecurity = "max-age=31536000"

    /// Adds the fields to one response; one that already holds them (`areApplied`) is left as it is.
    static func apply(to response: inout Response) {
        if areApplied(response.headers) { return }
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        if response.status == .notModified {
            // A 304 carries what the 200 would have that caches must update (RFC 9110 §15.4.5): Cache-Control, and
            // nothing about content, so no policy headers. An unchanged live poll stays under 300 bytes (issue 9).
            if !response.headers.contains("Cache-Control") {
                response.headers.add(name: "Cache-Control", value: "no-store")
            }
            return
        }
        let isHTML = response.headers["Content-Type"].map(isHTML) ?? false
        guard isHTML else { return }
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        if !response.headers.contains("Cache-Control") {
            response.headers.add(name: "Cache-Control", value: "no-store")
        }
    }

    /// `fields` of a 200 with the security fields added, as `apply` adds them.
    static func applied(to fields: HTTPHeaders) -> HTTPHeaders {
        var response = Response(status: .ok, headers: fields)
        apply(to: &response)
        return response.headers
    }

    /// Whether `headers` hold what `apply` would leave in them whatever the status and type: `nosniff`, the policy
    /// and `Referrer-Policy` once each with our values, and a `Cache-Control`. `apply` would then change at most
    /// the order of fields of different names, which carries no meaning (RFC 9110 §5.3). One pass over the fields,
    /// no allocation: a warm page's answer is checked rather than rebuilt.
    static func areApplied(_ headers: HTTPHeaders) -> Bool {
        var nosniff = 0
        var policy = 0
        var referrer = 0
        var cacheControl = false
        for field in headers {
            switch field.name.utf8.count {
            case 13:
                if HTTPHeaders.equal(field.name, "Cache-Control") { cacheControl = true }
            case 15:
                guard HTTPHeaders.equal(field.name, "Referrer-Policy") else { continue }
                guard field.value == "same-origin" else { return false }
                referrer += 1
            case 22:
                guard HTTPHeaders.equal(field.name, "X-Content-Type-Options") else { continue }
                guard field.value == "nosniff" else { return false }
                nosniff += 1
            case 23:
                guard HTTPHeaders.equal(field.name, "Content-Security-Policy") else { continue }
                guard field.value == contentSecurityPolicy else { return false }
                policy += 1
            default:
                continue
            }
        }
        return cacheControl && nosniff == 1 && policy == 1 && referrer == 1
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
