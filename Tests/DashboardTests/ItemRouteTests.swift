import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct ItemRouteTests {
    @Test func thePatternNamesTheParameterTheDotSegmentQueryUses() {
        let route = ItemRoute(collection: "habits", parameter: "name").with(action: "favorite")
        #expect(route.pattern == "/habits/:name/favorite")
        #expect(route.path("Yoga") == "/habits/Yoga/favorite")
        #expect(route.path("..") == "/habits//favorite?name=..")
    }

    @Test func theRouterMatchesTheLinksItBuilds() {
        #expect(Links.habitRoute.pattern == "/habits/:name")
        #expect(Links.personFollowRoute.pattern == "/people/:id/follow")
        #expect(Links.imageRoute.pattern == "/images/:id")
    }
}
