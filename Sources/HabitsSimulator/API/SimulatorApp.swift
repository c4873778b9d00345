import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI

/// The Habits API as the original HabitServer speaks it (SPEC §3), served from a `Simulator`.
///
/// Handlers are plain methods so tests can call them without a socket; `routes` wires them to paths.
public struct SimulatorApp: Sendable {
    /// The simulation behind the endpoints.
    public let simulator: Simulator
    let images: ImageStore
    /// `GET /users`, `/habits`, `/categories`: the data never changes while running, so encoded once.
    let usersJSON: [UInt8]
    let habitsJSON: [UInt8]
    let categoriesJSON: [UInt8]
    /// Distinguishes this process in ETags: generations restart at 0, so a bare generation could collide.
    let instanceTag: String

    /// The largest `POST /loggedHabit` body accepted (`maxLogBodyBytes(for:)`): bodies are a few dozen bytes, but
    /// the limit must fit the data set's longest names, or those habits could never be logged.
    public let maxLogBodyBytes: Int

    /// Creates the endpoints for `simulator`.
    public init(simulator: Simulator) {
        self.simulator = simulator
        let data = simulator.dataSet
        images = ImageStore(dataSet: data)
        usersJSON = JSONFragment.object(data.users.map { ($0.id, JSONFragment.user($0)) })
        habitsJSON = JSONFragment.object(data.habits.map { ($0.name, JSONFragment.habit($0)) })
        categoriesJSON = JSONFragment.array(data.categories.map(JSONFragment.category))
        instanceTag = String(UInt32.random(in: .min ... .max), radix: 36)
        maxLogBodyBytes = Self.maxLogBodyBytes(for: data)
    }

    /// Room for the longest user id plus the longest habit name with every byte JSON-escaped as `\uXXXX` (6 bytes,
    /// the worst a client may send), plus 1 KiB for keys, timestamp and whitespace; at least 4,096 bytes.
    /// (The HTTP server's own body limit, 64 KiB by default, still applies first.)
    static func maxLogBodyBytes(for data: DataSet) -> Int {
        let longestName = data.habits.map(\.name.utf8.count).max() ?? 0
        let longestID = (data.users + [data.activeUser]).map(\.id.utf8.count).max() ?? 0
        return max(4096, 6 * (longestName + longestID) + 1024)
    }

    /// Every endpoint of SPEC §3 plus the simulator controls. GET routes also answer HEAD; other methods get 405.
    public var routes: Router {
        var router = Router()
        router.get("/") { request, _ in self.status(request) }
        router.get("/users") { request, _ in self.json(self.usersJSON, etag: "catalog", request) }
        router.get("/habits") { request, _ in self.json(self.habitsJSON, etag: "catalog", request) }
        router.get("/categories") { request, _ in self.json(self.categoriesJSON, etag: "catalog", request) }
        router.get("/images/:userID") { request, context in try self.image(request, context) }
        router.get("/userStats") { request, _ in self.userStatistics(request) }
        router.get("/habitStats") { request, _ in self.habitStatistics(request) }
        router.get("/combinedStats") { request, _ in self.combinedStatistics(request) }
        router.get("/userLeadingStats/:userID") { request, context in try self.leadingStatistics(request, context) }
        router.post("/loggedHabit") { request, _ in try self.logHabit(request) }
        addControlRoutes(to: &router)
        return router
    }

    /// `GET /`: a plain-text summary, like the original server's status page.
    func status(_ request: Request) -> Response {
        let data = simulator.dataSet
        let text = """
            Habits API simulator
            simulation: \(simulator.isRunning ? "running" : "stopped")
            speed: \(Self.format(speed: simulator.speed))
            seed: \(simulator.seed)
            users: \(data.users.count), habits: \(data.habits.count), categories: \(data.categories.count)
            events since reset: \(simulator.eventCount)

            """
        return .text(text)
    }

    /// `GET /images/<userID>`: the PNG, cacheable, revalidated by ETag.
    func image(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try context.parameters.require("userID")
        guard let image = images.image(for: id) else { throw HTTPError(.notFound, "Unknown user \"\(id)\".") }
        var headers: HTTPHeaders = ["Content-Type": "image/png", "Cache-Control": "public, max-age=3600"]
        headers.add(name: "ETag", value: image.etag)
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag: image.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: image.bytes)
    }

    /// A JSON answer with an ETag for this process and `etag` (a generation or "catalog"); 304 when it matches.
    func json(_ bytes: [UInt8], etag: String, _ request: Request) -> Response {
        let tag = "\"\(instanceTag)-\(etag)\""
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "no-cache"]
        headers.add(name: "ETag", value: tag)
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: bytes)
    }

    /// Speeds print with two decimals, as the control URL takes them (`speed/1.50`).
    static func format(speed: Double) -> String {
        String(format: "%.2f", speed)
    }
}
