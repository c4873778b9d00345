import Foundation
import HTTPServer
import HabitsAPI
import Testing

@testable import HabitsSimulator

/// Regression (security review): `POST /loggedHabit` refused bodies over 4,096 bytes, but data sets may have longer
/// habit names, so such habits could not be logged. The limit now fits the data.
extension SimulatorAppTests {
    /// 2,500 × "Ω" (2 UTF-8 bytes each): a 5,000-byte name, so a plain body is over the old 4,096-byte limit.
    static let longName = String(repeating: "Ω", count: 2500)

    static func appWithLongHabitName() -> SimulatorApp {
        let body = Category(name: "Body", color: Color(hue: 0.3, saturation: 1, brightness: 0.8))
        let data = DataSet(
            users: [User(id: "u1", name: "Ada One")], activeUser: User(id: "activeUser", name: "Active User"),
            categories: [body],
            habits: [Habit(name: "Run", category: body, info: "Go."), Habit(name: longName, category: body, info: "")])
        return SimulatorApp(simulator: Simulator(dataSet: data, seed: 1, logger: .silent))
    }

    static func logRequest(_ json: String) -> Request {
        Request(
            method: .post, target: "/loggedHabit", headers: ["Content-Type": "application/json"], body: Array(json.utf8)
        )
    }

    static func body(habitName: String, padding: Int = 0) -> String {
        #"{"userID": "u1", "habitName": ""# + habitName + #"", "timestamp": "2026-11-29T10:15:30Z""#
            + String(repeating: " ", count: padding) + "}"
    }

    @Test func theLongestHabitNameOfTheDataCanBeLogged() throws {
        let app = Self.appWithLongHabitName()
        let plain = Self.body(habitName: Self.longName)
        #expect(plain.utf8.count > 4096)
        #expect(try app.logHabit(Self.logRequest(plain)).status == .ok)
        // The same name with every character escaped as \uXXXX (the worst case a client may send).
        let escaped = Self.body(habitName: String(repeating: #"\u03a9"#, count: 2500))
        #expect(try app.logHabit(Self.logRequest(escaped)).status == .ok)
        #expect(app.simulator.count(userID: "u1", habitName: Self.longName) == 2)
    }

    @Test func aBodyOverTheLimitIsStillRefusedWith413() throws {
        let app = Self.appWithLongHabitName()
        let fits = Self.body(habitName: "Run")
        let padding = app.maxLogBodyBytes - fits.utf8.count
        #expect(try app.logHabit(Self.logRequest(Self.body(habitName: "Run", padding: padding))).status == .ok)
        let error = try #require(throws: HTTPError.self) {
            try app.logHabit(Self.logRequest(Self.body(habitName: "Run", padding: padding + 1)))
        }
        #expect(error.status == .payloadTooLarge)
        #expect(app.simulator.count(userID: "u1", habitName: "Run") == 1)
    }

    /// The built-in data's names are short: the limit stays at its floor and still fits under the server's 64 KiB.
    @Test func theLimitHasAFloorAndFitsTheServersBodyLimit() throws {
        let app = SimulatorApp(simulator: Simulator(dataSet: try DataSet.builtIn(), seed: 1, logger: .silent))
        #expect(app.maxLogBodyBytes == 4096)
        #expect(Self.appWithLongHabitName().maxLogBodyBytes <= 65536)
    }
}
