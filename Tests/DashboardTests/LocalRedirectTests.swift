import Testing

@testable import Dashboard

@Suite struct LocalRedirectTests {
    @Test(arguments: ["/", "/habits", "/people?followed=1&q=ann", "/habits/Push-ups%2FSit-ups"])
    func acceptsLocalPaths(path: String) {
        #expect(LocalRedirect.path(path) == path)
    }

    @Test(arguments: [
        "", "habits", "//evil.example", "/\\evil.example", "http://evil.example/", "/a b", "/a\r\nLocation: x",
        "/\u{7F}", "/é", "/" + String(repeating: "a", count: 2048),
    ])
    func refusesAnythingThatCouldLeaveTheSiteOrSplitAHeader(path: String) {
        #expect(LocalRedirect.path(path) == nil)
    }

    @Test func refusesNil() {
        #expect(LocalRedirect.path(nil) == nil)
    }
}
