import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct LivePageTests {
    static let pages: [LivePage] = [.home, .habit, .person]

    @Test func fragmentsLiveAtTheirPagesPathUnderFragmentsExceptHome() {
        #expect(LivePage.home.fragmentRoute == "/fragments/home")
        #expect(LivePage.habit.fragmentRoute == "/fragments/habits/:name")
        #expect(LivePage.person.fragmentRoute == "/fragments/people/:id")
    }

    @Test func liveSourceIsThePagesLinkUnderFragmentsAndHomesIsFixed() {
        #expect(
            LivePage.habit.liveSource(path: Links.habit("Push-ups/Sit-ups")) == "/fragments/habits/Push-ups%2FSit-ups")
        #expect(LivePage.person.liveSource(path: Links.person("..")) == "/fragments/people/?id=..")
        #expect(LivePage.home.liveSource(path: "/") == "/fragments/home")
    }

    @Test func everyPageAndFragmentTemplateExists() throws {
        let names = Set(try TemplateLibrary(directory: Fixture.templatesDirectory, strict: true).templateNames)
        for page in Self.pages {
            #expect(names.contains(page.template), "\(page.template)")
            #expect(names.contains(page.fragmentTemplate), "\(page.fragmentTemplate)")
        }
    }

    /// A page and its fragment are cached apart, and one page's variants never meet another page's.
    @Test func renderKeysOfPagesAndFragmentsAreDistinct() {
        let keys = Self.pages.flatMap {
            [$0.pageKey(), $0.fragmentKey(), $0.pageKey(item: "x"), $0.fragmentKey(item: "x")]
        }
        #expect(Set(keys).count == keys.count)
        #expect(LivePage.habit.pageKey(item: "Yoga", query: "live=0") == "page:habit:Yoga?live=0")
    }
}
