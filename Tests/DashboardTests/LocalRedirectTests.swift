import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct LocalRedirectTests {
    @Test(arguments: [
        "/", "/habits", "/people?followed=1&q=ann", "/habits/Push-ups%2FSit-ups", "/people/user3", "/log",
        "/log?logged=Yoga", "/habits/Caf%C3%A9?x=/y?z", "/?", "/habits/?name=..",
    ])
    func acceptsLocalPaths(path: String) {
        #expect(LocalRedirect.path(path) == path)
    }

    @Test(arguments: [
        "", "habits", "//evil.example", "/\\evil.example", "http://evil.example/", "/a b", "/a\r\nLocation: x",
        "/\u{7F}", "/é", "/" + String(repeating: "a", count: 2048), "/habits?a b", "/?\r\nX: y", "?x",
    ])
    func refusesAnythingThatCouldLeaveTheSiteOrSplitAHeader(path: String) {
        #expect(LocalRedirect.path(path) == nil)
    }

    /// Issue 8: "only a known local path survives": our own non-page paths fall back to the page too.
    @Test(arguments: [
        "/static/app.js", "/fragments/home", "/metrics", "/healthz", "/unknown", "/habits/", "/habits/a/b",
        "/habits/%zz", "/habits/%2", "/habits/..", "/people/.", "/log/x", "/habits/a\\b", "//", "/habits//",
    ])
    func refusesLocalPathsThatAreNotPages(path: String) {
        #expect(LocalRedirect.path(path) == nil)
    }

    /// Every page link the dashboard makes survives, so a form always returns to the page it was on.
    @Test(arguments: ["Yoga", "Push-ups/Sit-ups", "Café crème & co", "<script>\"'", ".", "..", "a?b#c", "100%"])
    func everyLinkToAHabitOrPersonSurvives(name: String) {
        #expect(LocalRedirect.path(Links.habit(name)) == Links.habit(name))
        #expect(LocalRedirect.path(Links.person(name)) == Links.person(name))
    }

    /// A form returns to its item (issue 10): an element id after `#` survives, with any link before it.
    @Test(arguments: ["Yoga", "Push-ups/Sit-ups", "<script>\"'", ".."])
    func anElementFragmentSurvives(name: String) {
        let target = Links.habit(name) + "#" + Links.elementID(habit: name)
        #expect(LocalRedirect.path(target) == target)
        #expect(LocalRedirect.path("/people?sort=activity#p-0a") == "/people?sort=activity#p-0a")
        #expect(LocalRedirect.path("/habits#") == "/habits")
    }

    @Test(arguments: ["/habits#a b", "/habits#<x>", "/habits#a#b", "//evil#x", "/static/app.css#x", "/habits#\r\nX: y"])
    func refusesAnUnsafeFragmentOrPage(value: String) {
        #expect(LocalRedirect.path(value) == nil)
    }

    @Test func refusesNil() {
        #expect(LocalRedirect.path(nil) == nil)
    }
}
