import Logging
import Testing

@testable import HTTPServer

/// A request's logger names its client as the lines' source, by which the log's byte bound is shared (issue 48 point
/// 6), without writing it in the line.
@Suite struct RequestContextTests {
    @Test func aServersRequestLoggerHasThePeersClientKeyAsItsSource() throws {
        let base = RequestContext.SharedLogger(Logger(label: "t", sink: { _, _ in }), tagsRequestID: true)
        for (address, key) in [("192.0.2.7", "192.0.2.7"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64")] {
            let peer = try #require(IPAddress(address))
            let context = RequestContext(requestID: "r1", base: base, peer: peer, activity: RequestActivity())
            #expect(context.logger.source == key)
            #expect(context.logger.metadata == ["request.id": "r1"])
        }
        let unknown = RequestContext(requestID: "r2", base: base, peer: nil, activity: RequestActivity())
        #expect(unknown.logger.source == nil)
    }
}
