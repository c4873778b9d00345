import HTTPCore

/// Who a request comes from when its peer is a proxy the server was told to trust: the address that proxy saw, from
/// `X-Forwarded-For` (issue 46 point 3: behind nginx every visitor arrives from nginx's one address).
///
/// Anyone can send `X-Forwarded-For`, so it is read only from a trusted peer, and from the right: each proxy appends
/// the address it received the request from, so the entries to the right of the last untrusted one were written by
/// trusted proxies, and that entry is the client as the outermost trusted proxy saw it. Everything to its left is
/// whatever the client chose to send.
public enum ForwardedClient {
    /// The client of a request arriving from `peer` with the `X-Forwarded-For` fields `forwardedFor`; `peer` itself
    /// when it is not trusted.
    public static func resolve(
        peer: IPAddress, forwardedFor: [String], isTrusted: (IPAddress) -> Bool
    ) -> IPAddress {
        guard isTrusted(peer) else { return peer }
        var client = peer
        for field in forwardedFor.reversed() {
            for entry in field.split(separator: ",").reversed() {
                // A trusted proxy wrote junk (or `unknown`): the client is unknowable, so count the proxy itself.
                guard let address = IPAddress(entry.trimmingOWS) else { return peer }
                client = address
                if !isTrusted(address) { return address }
            }
        }
        // Every hop was a trusted proxy: the left-most one is as far back as anyone can vouch for.
        return client
    }
}
