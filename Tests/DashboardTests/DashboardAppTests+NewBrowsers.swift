import Foundation
import HTTPCore
import HTTPServer
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 8, "no lock-out": only signed cookies reach the disk, new ids are rationed per client address, and a full
/// store makes room instead of refusing.
extension DashboardAppTests {
    /// An app over `store` whose new-browser limit runs on `clock`.
    func appLimited(
        by clock: ManualClock, store: SettingsStore<Settings>? = nil, trustedProxies: [AddressRange] = []
    ) -> DashboardApp {
        DashboardApp(
            upstream: api, renderer: app.renderer,
            settings: BrowserSettings(
                store: store ?? self.store, signer: app.settings.signers.current!,
                newBrowsers: NewBrowserLimiter(perMinute: 30, clock: clock), trustedProxies: trustedProxies),
            clock: app.clock)
    }

    /// A favourite from `peer`, optionally through a proxy's `X-Forwarded-For`.
    func favorite(
        on app: DashboardApp, peer: String, forwardedFor: String? = nil, cookie: String? = nil
    ) async throws -> Response {
        var fields = [
            ("Host", Self.host), ("Origin", Self.origin), ("Content-Type", "application/x-www-form-urlencoded"),
        ]
        if let forwardedFor { fields.append(("X-Forwarded-For", forwardedFor)) }
        if let cookie { fields.append(("Cookie", cookie)) }
        return try await app.responder.respond(
            to: Request(
                method: .post, target: "/habits/Yoga/favorite", headers: HTTPHeaders(fields),
                body: Array("favorite=true".utf8)),
            context: RequestContext(requestID: "t", logger: .silent, peer: IPAddress(peer))
        ).response()
    }

    /// Neither an id the dashboard never issued, nor one of the untagged cookies of earlier versions, nor a tag from
    /// another installation ever names a file: the browser is treated as new and gets a cookie of its own.
    @Test(arguments: [
        "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        CookieSigner.ephemeral().cookieValue(for: BrowserID("AAAAAAAAAAAAAAAAAAAAAA")!),
    ])
    func unsignedOrForgedCookiesNeverReachTheDisk(value: String) async throws {
        let page = try await get("/habits", cookie: "habits_browser=\(value)")
        #expect(page.status == .ok)
        #expect(try settingsFiles().isEmpty)

        let response = try await post("/habits/Yoga/favorite", form: "favorite=true", cookie: "habits_browser=\(value)")
        #expect(response.status == .seeOther)
        let minted = try browserID(try cookie(from: response))
        #expect(minted.rawValue != "AAAAAAAAAAAAAAAAAAAAAA")
        #expect(try settingsFiles() == ["\(minted).json"])
    }

    @Test func aSignedCookieKeepsItsFileAndGetsNoNewOne() async throws {
        let cookie = try cookie(from: try await post("/habits/Yoga/favorite", form: "favorite=true"))
        let again = try await post("/people/user3/follow", form: "follow=true", cookie: cookie)
        #expect(again.headers["Set-Cookie"] == nil)
        #expect(
            try await store.load(try browserID(cookie))
                == Settings(favoriteHabits: ["Yoga"], followedUserIDs: ["user3"]))
    }

    @Test func thirtyNewBrowsersAMinuteFromOneAddressThen429WithRetryAfter() async throws {
        let clock = ManualClock()
        let limited = appLimited(by: clock)
        for _ in 0..<30 {
            #expect(try await favorite(on: limited, peer: "192.0.2.1:4000").status == .seeOther)
        }
        let refused = try await favorite(on: limited, peer: "192.0.2.1:4001")
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "2")
        #expect(refused.headers["Set-Cookie"] == nil)
        #expect(html(refused).contains("Please try again in 2 seconds."))
        #expect(await store.fileCount() == 3, "the cap of this suite's store (3) holds; none was refused for it")

        clock.advance(by: .seconds(2))
        #expect(try await favorite(on: limited, peer: "192.0.2.1:4002").status == .seeOther)
    }

    /// One IPv6 subscriber is handed a whole /64 (RFC 6177): the limit counts the /64, so addresses that differ only
    /// in their last 64 bits share one allowance, and another /64 has its own.
    @Test func theNewBrowserLimitCountsAnIPv6Slash64AsOneClient() async throws {
        let clock = ManualClock()
        let limited = appLimited(by: clock)
        for index in 0..<30 {
            let peer = "[2001:db8:1:2:\(String(index + 1, radix: 16))::7]:4000"
            #expect(try await favorite(on: limited, peer: peer).status == .seeOther)
        }
        #expect(try await favorite(on: limited, peer: "[2001:db8:1:2:ffff:1:2:3]:4000").status == .tooManyRequests)
        #expect(try await favorite(on: limited, peer: "[2001:db8:1:3::7]:4000").status == .seeOther)
    }

    /// The figure of issue 8: one address flooding mints at the limit for five minutes against a full store, while a
    /// second client comes, keeps its settings, and a third arrives at the end; neither ever sees a 429 or a 503.
    @Test func aMintingFloodFromOneAddressCannotLockOutOtherClients() async throws {
        let clock = ManualClock()
        let store = try SettingsStore(
            directory: directory.appendingPathComponent("flood"), maxFiles: 20, defaultValue: Settings(),
            logger: .silent, clock: clock)
        let limited = appLimited(by: clock, store: store)
        var (minted, refused) = (0, 0)
        var neighbour: String?
        for second in 0..<300 {
            // Four attempts a second from the attacker, who never sends a cookie back.
            for _ in 0..<4 {
                switch try await favorite(on: limited, peer: "192.0.2.66:5000").status {
                case .seeOther: minted += 1
                case .tooManyRequests: refused += 1
                case let status: Issue.record("attacker got \(status.code)")
                }
            }
            if second == 100 {
                let response = try await favorite(on: limited, peer: "198.51.100.7:6000")
                #expect(response.status == .seeOther)
                neighbour = try cookie(from: response)
                // The page after the 303, as a browser loads it: a read, which marks the file as in use.
                _ = try await limited.responder.respond(
                    to: Request(
                        method: .get, target: "/habits",
                        headers: HTTPHeaders([("Host", Self.host), ("Cookie", neighbour!)])),
                    context: RequestContext(requestID: "t", logger: .silent, peer: IPAddress("198.51.100.7"))
                ).response()
            }
            clock.advance(by: .seconds(1))
        }
        // The burst of 30, then one every 2 s: 30 + 299 s / 2.
        #expect(minted == 30 + 149)
        #expect(refused == 1_200 - minted)
        let latecomer = try await favorite(on: limited, peer: "203.0.113.9:7000")
        #expect(latecomer.status == .seeOther)
        let neighbourID = try browserID(try #require(neighbour))
        #expect(try await store.load(neighbourID).favoriteHabits == ["Yoga"], "the neighbour's settings survived")
        #expect(await store.fileCount() <= 20)
    }

    @Test func behindATrustedProxyTheForwardedClientIsRationedNotTheProxy() async throws {
        let clock = ManualClock()
        let proxied = appLimited(by: clock, trustedProxies: [AddressRange("127.0.0.1")!])
        for _ in 0..<30 {
            _ = try await favorite(on: proxied, peer: "127.0.0.1:9000", forwardedFor: "192.0.2.1")
        }
        #expect(
            try await favorite(on: proxied, peer: "127.0.0.1:9000", forwardedFor: "192.0.2.1").status
                == .tooManyRequests)
        #expect(try await favorite(on: proxied, peer: "127.0.0.1:9000", forwardedFor: "192.0.2.2").status == .seeOther)
    }

    /// A client that is not a configured proxy cannot escape the limit by inventing X-Forwarded-For addresses.
    @Test func anUntrustedClientCannotDodgeTheLimitWithForwardedFor() async throws {
        let clock = ManualClock()
        let proxied = appLimited(by: clock, trustedProxies: [AddressRange("127.0.0.1")!])
        for index in 0..<30 {
            _ = try await favorite(on: proxied, peer: "192.0.2.9:9000", forwardedFor: "10.0.0.\(index)")
        }
        let response = try await favorite(on: proxied, peer: "192.0.2.9:9000", forwardedFor: "10.0.0.99")
        #expect(response.status == .tooManyRequests)
    }
}
