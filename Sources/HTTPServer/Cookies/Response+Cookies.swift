import HTTPCore

extension Response {
    /// Adds one `Set-Cookie` field; earlier ones are kept, so several cookies can be set at once.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.add(setCookie: cookie)
    }
}

extension HTTPHeaders {
    /// Appends a `Set-Cookie` field for `cookie` (never merged: RFC 6265 §3 forbids folding Set-Cookie).
    public mutating func add(setCookie cookie: Cookie) {
        add(name: "Set-Cookie", value: cookie.headerValue)
    }
}
