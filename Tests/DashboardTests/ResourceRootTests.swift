import Foundation
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 20: a release unpacked anywhere finds `share/` beside its `bin/`; `--resources` overrides.
@Suite struct ResourceRootTests {
    func find(explicit: String? = nil, present: Set<String>) -> String {
        ResourceRoot.find(
            explicit: explicit, executable: "/opt/habits/bin/habits-dashboard", workingDirectory: "/home/me",
            checkout: "/src/habits", exists: { present.contains($0) }
        ).path
    }

    @Test func theReleasesShareDirectoryComesFirst() {
        #expect(find(present: ["/opt/habits/share/Templates", "/home/me/Templates"]) == "/opt/habits/share")
    }

    @Test func thenTheWorkingDirectoryThenTheCheckout() {
        #expect(find(present: ["/home/me/Templates", "/src/habits/Templates"]) == "/home/me")
        #expect(find(present: ["/src/habits/Templates"]) == "/src/habits")
        #expect(find(present: []) == "/home/me")
    }

    @Test func resourcesFlagOverridesRelativeToTheWorkingDirectory() {
        #expect(find(explicit: "/etc/habits", present: ["/opt/habits/share/Templates"]) == "/etc/habits")
        #expect(find(explicit: "res", present: []).hasSuffix("/home/me/res"))
    }
}
