import HabitsAPI
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct ColorStylesheetTests {
    @Test func classNameSpellsOutBackgroundAndText() {
        #expect(ColorStyle.favorite.className == "c-e6cf00-000000")
        #expect(ColorStyle(background: "#1A2B3C", text: "#ffffff").className == "c-000000-ffffff")
        #expect(ColorStyle(background: "red;}", text: "#fff").className == "c-000000-000000")
    }

    @Test func stylesheetHasOneSortedRulePerColourAndLinksInherit() {
        let css = ColorStylesheet.css(users: [Fixture.aga, Fixture.nobody], categories: [Fixture.exercise])
        let rules = css.split(separator: "\n").filter { $0.hasPrefix(".") }
        #expect(rules.count == 4)  // favourite, neutral (also the colourless user), Aga, Exercise
        #expect(rules == rules.sorted())
        #expect(css.contains(".c-e6cf00-000000 a,.c-e6cf00-000000 a:visited{color:inherit}"))
        #expect(css == ColorStylesheet.css(users: [Fixture.nobody, Fixture.aga], categories: [Fixture.exercise]))
    }
}
