import DashboardCore
import Foundation
import HTTPServer

/// Who a request comes from, for per-client limits: the connection's peer, or, when the peer is a trusted proxy,
/// the address that proxy saw, from `X-Forwarded-For`.
///
/// Anyone can send `X-Forwarded-For`, so it is read only from a configured proxy (`--trusted-proxy`), and from the
/// right: each proxy appends the address it received the request from, so the entries to the right of the last
/// untrusted one were written by trusted proxies, and that entry is the client as the outermost trusted proxy saw
/// it. Everything to its left is whatever the client chose to send.
public enum ClientAddress {
    /// The client's address for a request arriving from `peer` (the server's reading of the socket); nil when the
    /// peer is unknown (a request handed to the app directly, as in tests).
    public static func resolve(peer: IPAddress?, forwardedFor: [String], trustedProxies: [AddressRange]) -> IPAddress? {
        guard let peerAddress = peer else { return nil }
        guard isTrusted(peerAddress, trustedProxies) else { return peerAddress }
        var client = peerAddress
        for field in forwardedFor.reversed() {
            for entry in field.split(separator: ",").reversed() {
                // A trusted proxy wrote junk (or `unknown`): the client is unknowable, so count the proxy itself.
                guard let address = IPAddress(entry.trimmingCharacters(in: .whitespaces)) else { return peerAddress }
                client = address
                if !isTrusted(address, trustedProxies) { return address }
            }
        }
        // Every hop was a trusted proxy: the left-most one is as far back as anyone can vouch for.
        return client
    }

    /// `resolve`'s answer for a request and its context, as the key a per-client limit counts under; `unknown` when
    /// there is no peer.
    public static func key(
        of request: Request, context: RequestContext, trustedProxies: [AddressRange]
    ) -> String {
        let address = resolve(
            peer: context.peer, forwardedFor: request.headers.values(for: "X-Forwarded-For"),
            trustedProxies: trustedProxies)
        return address?.clientKey ?? "unknown"
    }

    private static func isTrusted(_ address: IPAddress, _ ranges: [AddressRange]) -> Bool {
        ranges.contains { $0.contains(address) }
    }
}
