import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct DashboardPageTests {
    static let pages: [DashboardPage] = [.habits, .people, .log]

    @Test func listPagesAreTheirCollectionsWithoutAnItem() {
        #expect(DashboardPage.habits.route == "/habits")
        #expect(DashboardPage.people.route == "/people")
        #expect(DashboardPage.log.route == "/log")
    }

    @Test func everyTemplateExists() throws {
        let names = Set(try TemplateLibrary(directory: Fixture.templatesDirectory, strict: true).templateNames)
        for page in Self.pages { #expect(names.contains(page.template), "\(page.template)") }
    }

    @Test func renderKeysNameThePageBeforeItsVariant() {
        #expect(DashboardPage.people.key(query: "sort=activity") == "page:people?sort=activity")
        #expect(DashboardPage.habits.key() == "page:habits")
    }

    /// A habit called `Yoga?live=0` must not share the paused Yoga page's rendering.
    @Test func anItemCannotPassForAnotherItemsVariant() {
        #expect(LivePage.habit.pageKey(item: "Yoga?live=0") != LivePage.habit.pageKey(item: "Yoga", query: "live=0"))
        #expect(LivePage.habit.pageKey(item: "a:b") != LivePage.habit.pageKey(item: "a", query: ":b"))
    }
}
