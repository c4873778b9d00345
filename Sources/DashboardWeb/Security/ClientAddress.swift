import DashboardCore
import Foundation
import HTTPServer

/// Who a request comes from, for per-client limits: the connection's peer, or, when the peer is a trusted proxy,
/// the address that proxy saw, from `X-Forwarded-For` (`ForwardedClient`, which the server's connection accounting
/// uses too).
public enum ClientAddress {
    /// The client's address for a request arriving from `peer` (the server's reading of the socket); nil when the
    /// peer is unknown (a request handed to the app directly, as in tests).
    public static func resolve(peer: IPAddress?, forwardedFor: [String], trustedProxies: [AddressRange]) -> IPAddress? {
        guard let peer else { return nil }
        return ForwardedClient.resolve(peer: peer, forwardedFor: forwardedFor, isTrusted: isTrusted(by: trustedProxies))
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

    /// Whether an address is one of `ranges`: what the server is given to know a trusted proxy by (nil for none).
    public static func isTrusted(by ranges: [AddressRange]) -> @Sendable (IPAddress) -> Bool {
        { address in ranges.contains { $0.contains(address) } }
    }
}
