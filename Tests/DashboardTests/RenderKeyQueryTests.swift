import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 23 point 6: a render key ignores what the page ignores, so a flood of distinct URLs for one page costs one
/// rendering, not one cache entry per URL.
@Suite struct RenderKeyQueryTests {
    @Test(arguments: ["/habits", "/people", "/people?sort=name"])
    func unknownQueryParametersShareThePagesRendering(page: String) async throws {
        let scripted = try ScriptedApp(name: "render-key-query")
        let first = try await scripted.get(page)
        #expect(first.status == .ok)
        let misses = scripted.app.renderCache.counters.misses
        let separator = page.contains("?") ? "&" : "?"
        for junk in ["utm_source=mail", "x=1&y=2", "zz=\(UUID().uuidString)"] {
            let again = try await scripted.get(page + separator + junk)
            #expect(again.status == .ok)
            #expect(again.body == first.body, "\(junk) changes nothing on the page")
        }
        #expect(scripted.app.renderCache.counters.misses == misses, "no new rendering for an unknown parameter")
    }

    /// The search box shows the query as typed, so case is part of the page; the spaces around it are not.
    @Test func spellingsOfOneSearchShareOneRendering() async throws {
        let scripted = try ScriptedApp(name: "render-key-search")
        _ = try await scripted.get("/people?q=ann")
        let misses = scripted.app.renderCache.counters.misses
        for spelling in ["%20ann%20", "ann%20%20", "%09ann"] { _ = try await scripted.get("/people?q=" + spelling) }
        #expect(scripted.app.renderCache.counters.misses == misses)
    }
}
