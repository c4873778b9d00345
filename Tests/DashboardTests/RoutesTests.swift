import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The route table (`Routes.swift`, issue 45 point 2) says which paths machines read.
@Suite struct RoutesTests {
    @Test func theMachineFacingKindsAreTheFragmentsImagesStaticFilesHealthMetricsAndColours() {
        #expect(Route.machineKinds == ["/fragments/", "/images/", "/static/", "/healthz", "/metrics", "/colors.css"])
    }

    @Test func everyPathOfAMachineFacingKindGetsPlainTextAndEveryOtherAPage() {
        for path in ["/fragments/nothing-here", "/images/x", "/static/app.css", "/healthz", "/metrics", "/colors.css"] {
            #expect(!ErrorAnswers<Router>.showsPage(for: Request(method: .get, target: path)), "\(path)")
        }
        for path in ["/", "/habits", "/habits/Yoga", "/people/u1/follow", "/log", "/nowhere"] {
            #expect(ErrorAnswers<Router>.showsPage(for: Request(method: .get, target: path)), "\(path)")
        }
    }

    @Test func theSixPagesAndThreeFormsAreForPeopleAndNoFragmentOrImageIs() {
        let forPeople = Route.all.filter { $0.audience == .people }.map(\.pattern)
        #expect(forPeople.count == 9)  // six pages, three forms
        #expect(!forPeople.contains { $0.hasPrefix("/fragments/") || $0.hasPrefix("/images/") })
    }
}
