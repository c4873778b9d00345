/// Connection accounting behind a trusted proxy (issue 46 point 3): the proxy carries many clients' requests on its
/// connections, one after another, so each connection counts under the client of the request it carries last.
extension Connection {
    /// Counts this connection under the client `request` is forwarded for, when the peer is a trusted proxy and that
    /// client is not the one it counts under already (the server's lock is taken only then).
    func accountForwardedClient(of request: Request) {
        guard let client, let isTrusted = environment.configuration.trustedProxy, isTrusted(client) else { return }
        let forwarded = ForwardedClient.resolve(
            peer: client, forwardedFor: request.headers.values(for: "X-Forwarded-For"), isTrusted: isTrusted
        ).description
        guard forwarded != (accountedAs ?? client.description) else { return }
        accountedAs = forwarded
        environment.onReaddress(id, forwarded)
    }
}
