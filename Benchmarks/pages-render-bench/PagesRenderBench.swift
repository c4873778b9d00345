// How long a new snapshot version costs before People and Home can be served (issue 9 targets: People ≤ 150 µs,
// Home ≤ 100 µs): the view model plus the templates, with nothing cached. Also the snapshot build itself, which runs
// off the request path once per upstream change. Not a test: a figure for Benchmarks/pages.sh.
// Usage: pages-render-bench <upstream URL> <Templates dir> [iterations]
import DashboardCore
import DashboardWeb
import Foundation
import HabitsAPI
import TemplateKit

@main enum PagesRenderBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let url = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: pages-render-bench <upstream URL> <Templates dir> [n]\n".utf8))
            exit(2)
        }
        let iterations = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000
        // A long timeout: at a hundred times the built-in data the statistics are megabytes (Benchmarks/scale.sh).
        var configuration = try UpstreamConfiguration(url: url.absoluteString)
        configuration.totalTimeout = .seconds(120)
        let client = HabitsClient(configuration: configuration)
        let inputs = SnapshotInputs(
            users: try await client.users(), habits: try await client.habits(),
            categories: try await client.categories(), statistics: try await client.combinedStatistics())
        let renderer = PageRenderer(
            templates: try TemplateLibrary(directory: URL(fileURLWithPath: arguments[2]), strict: false))
        // Home as the benchmark's browser sees it: 4 favourites, 5 follows.
        let habits = inputs.habits.keys.sorted()
        let users = inputs.users.keys.sorted().filter { $0 != User.activeUserID }
        let settings = Settings(
            favoriteHabits: Array(habits.prefix(4)), followedUserIDs: Array(users.prefix(5)))

        let build = measure(iterations / 10) { _ = Snapshot(inputs: inputs) }
        let snapshot = Snapshot(inputs: inputs)
        var bytes = 0
        // Nothing cached at all: a new renderer (and so an empty card cache) every time.
        let peopleCold = try measure(iterations) {
            let fresh = PageRenderer(templates: renderer.templates)
            let page = PeoplePage(snapshot: snapshot, settings: settings, sort: .activity)
            bytes = try fresh.pageBytes(
                "people", page.templateFields(listPath: "/people?sort=activity", renderer: fresh),
                frame: PageFrame(title: "People", tab: .people)
            ).count
        }
        // A new version in which one person's count changed: their card is rendered, the others come from the cards
        // rendered for the versions before.
        var version = 0
        let people = try measure(iterations) {
            var page = PeoplePage(snapshot: snapshot, settings: settings, sort: .activity)
            version += 1
            page.people[version % page.people.count].totalCount += version
            bytes = try renderer.pageBytes(
                "people", page.templateFields(listPath: "/people?sort=activity", renderer: renderer),
                frame: PageFrame(title: "People", tab: .people)
            ).count
        }
        let peopleBytes = bytes
        // Home as People: with nothing cached, and for a version in which one leaderboard card's leader changed.
        func home(_ page: HomePage, _ renderer: PageRenderer) throws -> Int {
            let fragment = try renderer.templates.render(
                "fragments/home", page.fragmentValue(stale: nil, renderer: renderer))
            return try renderer.livePageBytes(
                "home", HomePage.pageFields(), fragment: fragment, fragmentTag: EntityTag.strong(for: fragment),
                liveSource: "/fragments/home", frame: PageFrame(title: "Home", tab: .home, isLive: true)
            ).count
        }
        let homeCold = try measure(iterations) {
            bytes = try home(
                HomePage(snapshot: snapshot, settings: settings), PageRenderer(templates: renderer.templates))
        }
        let homeBytes = bytes
        let home = try measure(iterations) {
            var page = HomePage(snapshot: snapshot, settings: settings)
            version += 1
            if !page.leaderboard.isEmpty {
                page.leaderboard[version % page.leaderboard.count].leader.count = version
            }
            bytes = try home(page, renderer)
        }
        let statisticsBytes = try await SocketTransport(configuration: configuration).send(
            HTTPClientRequest(method: .get, target: configuration.basePath + "/combinedStats")
        ).body
        let refresh = try RefreshBench.run(
            inputs: inputs, statisticsBytes: statisticsBytes, iterations: iterations / 10)
        print(String(format: "snapshot build: %.0f µs (median of %d)", build, iterations / 10))
        print(
            String(
                format: "refresh CPU, one count changed, an hour of history: decode %.0f µs (%d bytes) + build %.0f µs"
                    + " + history %.0f µs = %.0f µs (medians of %d; history: the mean, a refresh starting a new"
                    + " 10 s slot, one in four, %.0f µs)", refresh.decode, statisticsBytes.count, refresh.build,
                refresh.history, refresh.total, iterations / 10, refresh.historyNewSlot))
        print(
            String(
                format: "decode of the whole answer, nothing kept: %.0f µs (median of %d)", refresh.wholeDecode,
                iterations / 10))
        print(String(format: "new version, People, nothing cached: %.0f µs (median of %d)", peopleCold, iterations))
        print(
            String(
                format: "new version, People, one card changed: %.0f µs (%d bytes, by activity; median of %d)", people,
                peopleBytes, iterations))
        print(
            String(
                format: "new version, Home, nothing cached: %.0f µs (%d bytes; median of %d)", homeCold, homeBytes,
                iterations))
        print(String(format: "new version, Home, one card changed: %.0f µs (median of %d)", home, iterations))
        for (name, time, size) in try OtherPagesBench.run(
            snapshot: snapshot, settings: settings, renderer: renderer, iterations: max(1, iterations / 10))
        {
            print(
                "new version, \(name): "
                    + String(format: "%.0f µs (%d bytes; median of %d)", time, size, iterations / 10))
        }
    }

    /// The median time of one run of `body`, in microseconds.
    static func measure(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<max(iterations, 1) {
            let elapsed = try clock.measure(body)
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}
