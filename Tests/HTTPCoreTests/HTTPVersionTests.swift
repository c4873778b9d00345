import HTTPCore
import Testing

@Suite struct HTTPVersionTests {
    static func parse(_ text: String) -> HTTPVersion? {
        Array(text.utf8).withUnsafeBufferPointer { HTTPVersion.parse($0, 0..<$0.count) }
    }

    @Test func parsesAnyDigitPairAndLeavesTheChoiceToTheCaller() {
        #expect(Self.parse("HTTP/1.1") == .http1_1)
        #expect(Self.parse("HTTP/1.0") == .http1_0)
        #expect(Self.parse("HTTP/2.0") == HTTPVersion(major: 2, minor: 0))
        #expect(Self.parse("HTTP/1.9") == HTTPVersion(major: 1, minor: 9))
    }

    /// The name is case-sensitive (RFC 9112 §2.3) and the version is exactly one digit each side.
    @Test(arguments: ["http/1.1", "HTTP/1", "HTTP/1.10", "HTTP/11", "HTTP/a.1", "HTTP 1.1", "HTTP/1,1", ""])
    func refusesAnythingElse(text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func laterVersionsThanHTTP10PersistByDefault() {
        #expect(!HTTPVersion.http1_0.persistsByDefault)
        #expect(HTTPVersion.http1_1.persistsByDefault)
        #expect(HTTPVersion(major: 2, minor: 0).persistsByDefault)
    }
}
