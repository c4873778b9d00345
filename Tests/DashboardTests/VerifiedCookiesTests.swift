import Foundation
import HTTPCore
import HTTPServer
import Testing

@testable import Dashboard

@Suite struct VerifiedCookiesTests {
    func request(cookie value: String) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders([("Cookie", BrowserID.cookieName + "=" + value)]))
    }

    @Test func onlyCookiesTheSignerAcceptedAreRememberedAndAForgeryIsRefusedEveryTime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verified-\(UUID().uuidString)")
        defer {
            do {
                try FileManager.default.removeItem(at: directory)
            } catch {
                // Nothing was created, or it stays in /tmp: neither affects another test.
            }
        }
        let store = try SettingsStore(directory: directory, maxFiles: 3, defaultValue: Settings(), logger: .silent)
        let settings = BrowserSettings(store: store)
        let id = BrowserID.random()
        let good = settings.signer.cookieValue(for: id)
        let forged = String(good.dropLast()) + (good.hasSuffix("A") ? "B" : "A")

        #expect(settings.browserID(of: request(cookie: forged)) == nil)
        #expect(settings.verifiedCookies.count == 0)
        #expect(settings.browserID(of: request(cookie: good)) == id)
        #expect(settings.verifiedCookies.count == 1)
        #expect(settings.browserID(of: request(cookie: good)) == id)
        #expect(settings.browserID(of: request(cookie: forged)) == nil)
        #expect(settings.verifiedCookies.count == 1)
    }

    @Test func theMemoStaysWithinItsCapacity() {
        let memo = VerifiedCookies(capacity: 2)
        for _ in 0..<5 {
            let id = BrowserID.random()
            memo.remember(id.rawValue, names: id)
        }
        #expect(memo.count <= 2)
    }
}
