import Foundation
import HTTPServer
import HabitsAPI
import Testing

@testable import HabitsSimulator

/// The control endpoints (start, stop, reset, speed), and two servers with one seed serving the same statistics after
/// the same ticks.
extension SimulatorAppTests {
    @Test func controlEndpointsStartStopResetAndChangeSpeed() async throws {
        try await LiveSimulator.with { live in
            func text(_ path: String, method: String = "GET") async throws -> String {
                try await live.fetch(path, method: method, body: method == "POST" ? [] : nil).text
            }
            #expect(try await text("/control/simulator/status") == "stopped")
            #expect(try await text("/control/simulator/start", method: "POST") == "running")
            #expect(try await text("/control/simulator/status") == "running")
            #expect(try await text("/control/simulator/stop") == "stopped")
            #expect(live.simulator.isRunning == false)
            let speed = try await live.fetch("/control/simulator/speed/2.50")
            #expect(speed.status == 200 && speed.text == "2.50")
            #expect(live.simulator.speed == 2.5)
            for bad in ["20", "0.01", "abc", "nan", "-1"] {
                #expect(try await live.fetch("/control/simulator/speed/\(bad)").status == 400, "\(bad)")
            }
            #expect(live.simulator.speed == 2.5)
            live.simulator.step(30)
            #expect(try await live.fetch("/control/simulator/reset").status == 200)
            let stats = try await live.get([HabitStatistics].self, "/habitStats")
            #expect(stats.allSatisfy { $0.userCounts.isEmpty })
        }
    }

    @Test func twoServersWithTheSameSeedServeIdenticalStatsAfterTheSameTicks() async throws {
        let first = try await LiveSimulator.with(seed: 31) { live in
            live.simulator.step(400)
            return try await live.fetch("/combinedStats").body
        }
        let second = try await LiveSimulator.with(seed: 31) { live in
            live.simulator.step(400)
            return try await live.fetch("/combinedStats").body
        }
        #expect(first == second)
    }
}
