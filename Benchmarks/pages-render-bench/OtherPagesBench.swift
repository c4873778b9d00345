// The other pages' render time for a new version (Benchmarks/scale.sh prints them beside People and Home): Habits,
// the most logged habit's page, the most active person's page and Log Habit, each view model plus its templates.
import DashboardCore
import DashboardWeb
import HabitsAPI
import TemplateKit

enum OtherPagesBench {
    /// (page, median µs, bytes) for each page.
    static func run(snapshot: Snapshot, settings: Settings, renderer: PageRenderer, iterations: Int) throws
        -> [(String, Double, Int)]
    {
        let statistics = snapshot.inputs.statistics
        let habit = statistics.habitStatistics.max { $0.userCounts.count < $1.userCounts.count }?.habit.name ?? ""
        let person = statistics.userStatistics.max { $0.habitCounts.count < $1.habitCounts.count }?.user.id ?? ""
        var results: [(String, Double, Int)] = []
        var bytes = 0
        let habits = try PagesRenderBench.measure(iterations) {
            let page = HabitsListPage(snapshot: snapshot, settings: settings)
            bytes = try renderer.pageBytes(
                "habits", page.templateFields(listPath: "/habits", renderer: renderer),
                frame: PageFrame(title: "Habits", tab: .habits)
            ).count
        }
        results.append(("Habits", habits, bytes))
        let habitPage = try PagesRenderBench.measure(iterations) {
            guard let page = HabitDetailPage(habitName: habit, snapshot: snapshot, settings: settings) else { return }
            let fragment = try renderer.templates.render("fragments/habit", page.fragmentValue(stale: nil))
            bytes = try renderer.livePageBytes(
                "habit", page.templateFields, fragment: fragment, fragmentTag: EntityTag.strong(for: fragment),
                liveSource: "/fragments" + page.path, frame: PageFrame(title: page.name, tab: .habits, isLive: true)
            ).count
        }
        results.append(("habit", habitPage, bytes))
        let personPage = try PagesRenderBench.measure(iterations) {
            guard let page = PersonDetailPage(userID: person, snapshot: snapshot, settings: settings) else { return }
            let fragment = try renderer.templates.render("fragments/person", page.fragmentValue(stale: nil))
            bytes = try renderer.livePageBytes(
                "person", page.templateFields, fragment: fragment, fragmentTag: EntityTag.strong(for: fragment),
                liveSource: "/fragments" + page.path, frame: PageFrame(title: page.name, tab: .people, isLive: true)
            ).count
        }
        results.append(("person", personPage, bytes))
        let log = try PagesRenderBench.measure(iterations) {
            let page = LogHabitPage(snapshot: snapshot, settings: settings)
            bytes = try renderer.pageBytes(
                "log", page.templateFields(failure: nil), frame: PageFrame(title: "Log Habit", tab: .log)
            ).count
        }
        results.append(("Log", log, bytes))
        return results
    }
}
