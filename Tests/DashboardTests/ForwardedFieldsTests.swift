import HTTPCore
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct ForwardedFieldsTests {
    @Test func readsXForwardedProtoAndHostTakingTheNearestProxysEntry() {
        let fields = ForwardedFields(
            HTTPHeaders([
                ("X-Forwarded-Proto", "http, HTTPS"), ("X-Forwarded-Host", "evil.example"),
                ("X-Forwarded-Host", "habits.example:8443"),
            ]))
        #expect(fields == ForwardedFields(proto: "https", host: "habits.example:8443"))
    }

    @Test func readsRFC7239ForwardedWhichWinsOverTheXFields() {
        let fields = ForwardedFields(
            HTTPHeaders([
                (
                    "Forwarded",
                    #"for=1.2.3.4;proto=http;host=evil.example, for="[::1]";proto=https;host="habits.example""#
                ),
                ("X-Forwarded-Proto", "http"), ("X-Forwarded-Host", "other.example"),
            ]))
        #expect(fields == ForwardedFields(proto: "https", host: "habits.example"))
    }

    @Test(arguments: [
        [("X-Forwarded-Proto", "gopher")], [("X-Forwarded-Proto", "")], [("Forwarded", "for=1.2.3.4;proto=ws")],
        [("Forwarded", "")],
    ])
    func ignoresSchemesOtherThanHTTPAndHTTPS(headers: [(String, String)]) {
        #expect(ForwardedFields(HTTPHeaders(headers)).proto == nil)
    }

    @Test func noFieldsSayNothing() {
        #expect(ForwardedFields(HTTPHeaders([("Host", "x")])) == ForwardedFields())
    }
}
