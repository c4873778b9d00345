import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The profile images proxied with their caching headers (a non-image type refused), and the colour sheet.
extension DashboardAppTests {
    @Test func imagesAreProxiedWithCachingHeaders() async throws {
        let response = try await get("/images/user0")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "image/png")
        #expect(response.headers["Cache-Control"] == "public, max-age=86400")
        #expect(response.body == [0x89, 0x50, 0x4E, 0x47])
        let again = try await get("/images/user0", headers: [("If-None-Match", try #require(response.headers["ETag"]))])
        #expect(again.status == .notModified)
    }

    /// Regression: an empty or `;` Content-Type split into no parts, and indexing the first one trapped (a crash of
    /// the whole dashboard from one upstream header). The API client refuses such images first, so the app's own
    /// check is driven with data that skips the client.
    @Test(arguments: ["text/html", "", ";", " ; charset=x"])
    func imageWithANonImageTypeIsRefused(contentType: String) async throws {
        api.setImageContentType(contentType)
        let response = try await get("/images/user0")
        #expect(response.status == .badGateway)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        let data = ScriptedData()
        data.setImageContentType(contentType)
        let unchecked = DashboardApp(
            upstream: data,
            renderer: try Fixture.renderer(),
            settings: BrowserSettings(store: store), metrics: { _ in "" }, clock: app.clock)
        let direct = try await unchecked.responder.respond(
            to: Request(method: .get, target: "/images/user0", headers: HTTPHeaders([("Host", Self.host)])),
            context: RequestContext(requestID: "t", logger: .silent)
        ).response()
        #expect(direct.status == .badGateway)
    }

    @Test func colorsStylesheetHasAClassForEveryUserAndCategory() async throws {
        let response = try await get("/colors.css")
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        let css = html(response)
        for user in Fixture.users.values {
            #expect(css.contains("." + ColorStyle(user.color).className + "{"))
        }
        for category in Fixture.categories {
            #expect(css.contains("." + ColorStyle(category.color).className + "{"))
        }
        #expect(css.contains(".\(ColorStyle.favorite.className){background-color:#e6cf00;color:#000000}"))
    }
}
