import HTTPServer
import HabitsAPI

extension SimulatorApp {
    /// `GET /userStats[?ids=a,b]`: every simulated user (and the active user once it has logged), or the
    /// listed ones in the order given; unknown ids are ignored.
    func userStatistics(_ request: Request) -> Response {
        let snapshot = simulator.snapshot()
        guard let ids = Self.list(request, "ids") else {
            return json(snapshot.allUserStatistics, etag: "\(snapshot.generation)", request)
        }
        let elements = ids.compactMap { simulator.userIndex($0) }.map { snapshot.userStatistics[$0] }
        return json(JSONFragment.array(elements), etag: "\(snapshot.generation)", request)
    }

    /// `GET /habitStats[?names=A,B]`: every habit, including ones nobody logged (empty `userCounts`).
    func habitStatistics(_ request: Request) -> Response {
        let snapshot = simulator.snapshot()
        guard let names = Self.list(request, "names") else {
            return json(snapshot.allHabitStatistics, etag: "\(snapshot.generation)", request)
        }
        let elements = names.compactMap { simulator.habitIndex($0) }.map { snapshot.habitStatistics[$0] }
        return json(JSONFragment.array(elements), etag: "\(snapshot.generation)", request)
    }

    /// `GET /combinedStats`: both lists in one object.
    func combinedStatistics(_ request: Request) -> Response {
        let snapshot = simulator.snapshot()
        return json(snapshot.combined, etag: "\(snapshot.generation)", request)
    }

    /// `GET /userLeadingStats/<userID>`: one `{"user","habitCounts"}` with only the habits the user leads
    /// (every user tied at a habit's maximum above zero leads it); `habitCounts` is `[]` when none.
    func leadingStatistics(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try context.parameters.require("userID")
        guard let user = simulator.userIndex(id) else { throw HTTPError(.notFound, "Unknown user \"\(id)\".") }
        let snapshot = simulator.snapshot()
        let bytes = simulator.encoder.userStatistics(user: user, counters: snapshot.counters, leadingOnly: true)
        return json(bytes, etag: "\(snapshot.generation)", request)
    }

    /// The comma-separated values of every `name` parameter, trimmed and de-duplicated in order;
    /// nil when the parameter is absent (which means "all").
    static func list(_ request: Request, _ name: String) -> [String]? {
        let values = request.query.values(name)
        guard !values.isEmpty else { return nil }
        var seen: Set<String> = []
        return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { seen.insert($0).inserted }
    }
}
