import Foundation
import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct VerifiedCookiesTests {
    func request(cookie value: String) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders([("Cookie", BrowserID.cookieName + "=" + value)]))
    }

    func settings(in directory: URL) throws -> BrowserSettings {
        BrowserSettings(
            store: try SettingsStore(directory: directory, maxFiles: 3, defaultValue: Settings(), logger: .silent))
    }

    func removeDirectory(_ directory: URL) {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // Nothing was created, or it stays in /tmp: neither affects another test.
        }
    }

    @Test func onlyCookiesTheSignerAcceptedAreRememberedAndAForgeryIsRefusedEveryTime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verified-\(UUID().uuidString)")
        defer { removeDirectory(directory) }
        let settings = try settings(in: directory)
        let id = BrowserID.random()
        let good = settings.signers.current!.cookieValue(for: id)
        let forged = String(good.dropLast()) + (good.hasSuffix("A") ? "B" : "A")

        #expect(settings.browserID(of: request(cookie: forged)) == nil)
        #expect(settings.verifiedCookies.count == 0)
        #expect(settings.browserID(of: request(cookie: good)) == id)
        #expect(settings.verifiedCookies.count == 1)
        #expect(settings.browserID(of: request(cookie: good)) == id)
        #expect(settings.browserID(of: request(cookie: forged)) == nil)
        #expect(settings.verifiedCookies.count == 1)
    }

    /// Issue 23, cookie tossing: forged `habits_browser` cookies sent before the real one (a sibling subdomain set
    /// them with a more specific path) do not hide it, however many there are (`SignedCookieChoiceTests` has the rest).
    @Test func theCookieThatVerifiesWinsOverForgedOnesInFrontOfIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verified-\(UUID().uuidString)")
        defer { removeDirectory(directory) }
        let settings = try settings(in: directory)
        let id = BrowserID.random()
        let other = BrowserID.random()
        let good = settings.signers.current!.cookieValue(for: id)
        // A tag's last character carries only 4 bits, so it may already be "A": flip it to one it cannot be.
        let signed = settings.signers.current!.cookieValue(for: other)
        let forged = signed.dropLast() + (signed.last == "A" ? "Q" : "A")
        let name = BrowserID.cookieName
        let tossed = Request(
            method: .get, target: "/",
            headers: HTTPHeaders([("Cookie", "\(name)=\(forged); \(name)=junk"), ("Cookie", "\(name)=\(good)")]))
        #expect(settings.browserID(of: tossed) == id)
        // Issue 48 point 2: four junk copies in front no longer hide the real one.
        let stuffed = Array(repeating: "\(name)=\(forged)", count: 4) + ["\(name)=\(good)"]
        let request = Request(
            method: .get, target: "/", headers: HTTPHeaders([("Cookie", stuffed.joined(separator: "; "))]))
        #expect(settings.browserID(of: request) == id)
    }

    /// It answers for what it was told (a memo that stores nothing would pass a bound alone), and when full it forgets
    /// the value used least recently, never one just looked up.
    @Test func theMemoForgetsTheLeastRecentlyUsedValueWhenFull() {
        let memo = VerifiedCookies<BrowserID>(capacity: 2)
        let (first, second, third) = (BrowserID.random(), BrowserID.random(), BrowserID.random())
        memo.remember(first.rawValue, names: first)
        memo.remember(second.rawValue, names: second)
        #expect(memo.named(by: first.rawValue) == first)
        #expect(memo.named(by: second.rawValue) == second)
        #expect(memo.named(by: first.rawValue) == first)  // now `second` is the least recently used
        memo.remember(third.rawValue, names: third)
        #expect(memo.count == 2)
        #expect(memo.named(by: first.rawValue) == first)
        #expect(memo.named(by: third.rawValue) == third)
        #expect(memo.named(by: second.rawValue) == nil)
    }

    /// The bytes `/metrics` reports are what the values cost, and never past the budget, however long they are.
    @Test func theMemoCountsItsBytesAndStaysWithinItsBudget() {
        let memo = VerifiedCookies<BrowserID>(capacity: 4)
        #expect(memo.budgetBytes == 4 * VerifiedCookies<BrowserID>.bytesPerValue)
        let id = BrowserID.random()
        memo.remember("v", names: id)
        #expect(memo.bytes == 1 + VerifiedCookies<BrowserID>.bytesPerEntry)
        for length in [200, 300, 400] {
            memo.remember(String(repeating: "x", count: length), names: id)
            #expect(memo.bytes <= memo.budgetBytes)
        }
        #expect(memo.named(by: String(repeating: "x", count: 400)) == id, "the latest value is remembered")
        #expect(memo.named(by: "v") == nil, "the oldest made room")
    }
}

@Suite struct VerifiedVisitsTests {
    func request(cookie: String) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders([("Cookie", cookie)]))
    }

    /// The last-visit cookie is checked once per distinct value: after that its second comes from the memo, and a
    /// forged value is never remembered, so it is refused (and checked in full) every time.
    @Test func aVerifiedVisitIsRememberedAndAForgedOneIsNot() {
        let signer = CookieSigner.ephemeral()
        let memo = VerifiedCookies<Int>()
        let scope = CookieScope(site: SitePolicy())
        let good = signer.signed("1700000000", label: LastVisit.label)
        let cookie = "\(LastVisit.cookieName)=\(good)"
        #expect(
            LastVisit.second(of: request(cookie: cookie), scope: scope, signer: signer, verified: memo) == 1_700_000_000
        )
        #expect(memo.named(by: good) == 1_700_000_000)
        #expect(
            LastVisit.second(of: request(cookie: cookie), scope: scope, signer: signer, verified: memo) == 1_700_000_000
        )
        #expect(memo.count == 1)
        let forged = "1800000000." + good.split(separator: ".").last!
        #expect(
            LastVisit.second(
                of: request(cookie: "\(LastVisit.cookieName)=\(forged)"), scope: scope, signer: signer, verified: memo)
                == nil)
        #expect(memo.count == 1)
    }
}
