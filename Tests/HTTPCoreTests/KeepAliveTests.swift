import HTTPCore
import Testing

@Suite struct KeepAliveTests {
    /// Moved from ConnectionStateTests: the rule the server applies to every request.
    @Test(
        arguments: [
            ("1.1", nil, true), ("1.1", "close", false), ("1.1", "Keep-Alive, CLOSE", false),
            ("1.0", nil, false), ("1.0", "keep-alive", true),
        ] as [(String, String?, Bool)])
    func keepAliveFollowsVersionAndConnectionHeader(version: String, connection: String?, expected: Bool) {
        var headers: HTTPHeaders = ["Host": "x"]
        if let connection { headers.add(name: "Connection", value: connection) }
        #expect(KeepAlive.persists(version: version == "1.1" ? .http1_1 : .http1_0, headers: headers) == expected)
    }

    /// Options are list elements: whitespace and empty elements around them are ignored, and a token merely
    /// containing `close` is not `close`.
    @Test(
        arguments: [
            (" close ", false), (",,close,", false), ("\tclose", false), ("upgrade, close", false),
            ("closed", true), ("not-close", true), ("clo se", true), ("", true), (",", true),
        ] as [(String, Bool)])
    func connectionOptionsAreMatchedAsWholeListElements(value: String, persists: Bool) {
        #expect(KeepAlive.persists(version: .http1_1, headers: ["Connection": value]) == persists)
    }

    @Test func closeInAnyConnectionFieldLineWinsOverKeepAliveInAnother() {
        let headers = HTTPHeaders([("Connection", "keep-alive"), ("connection", "Close")])
        #expect(!KeepAlive.persists(version: .http1_0, headers: headers))
        #expect(!KeepAlive.persists(version: .http1_1, headers: headers))
    }

    @Test func keepAliveInALaterFieldLineKeepsAnHTTP10ConnectionOpen() {
        let headers = HTTPHeaders([("Connection", "upgrade"), ("CONNECTION", "Keep-Alive")])
        #expect(KeepAlive.persists(version: .http1_0, headers: headers))
    }

    /// A response from an HTTP/1.2 upstream (a minor version we do not know) is handled as HTTP/1.1 (RFC 9110 §2.5).
    @Test func laterMinorVersionsPersistByDefault() {
        #expect(KeepAlive.persists(version: HTTPVersion(major: 1, minor: 2), headers: [:]))
    }

    /// A value that is a different header's does not count.
    @Test func onlyTheConnectionFieldIsConsulted() {
        #expect(KeepAlive.persists(version: .http1_1, headers: ["Keep-Alive": "close", "X-Connection": "close"]))
    }
}
