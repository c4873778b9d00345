import Foundation
import HabitsAPI
import Testing

@testable import HabitsSimulator

/// Timing harness, not a test of behaviour: run with
/// `HABITS_BENCH=1 swift test -c release --filter StatisticsSnapshotBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HABITS_BENCH"] == "1", "set HABITS_BENCH=1"))
struct StatisticsSnapshotBenchmark {
    @Test func measureCombinedStatsBuildTime() throws {
        let simulator = try Simulator(dataSet: .builtIn(), seed: 1, logger: .silent)
        simulator.step(100_000)  // every pair with a rate has counts: the largest responses the data set gives
        let clock = ContinuousClock()
        let rounds = 2000
        var bytes = 0
        let miss = clock.measure {
            for _ in 0..<rounds {
                simulator.step()  // new generation: the next snapshot() rebuilds every response
                bytes = simulator.snapshot().combined.count
            }
        }
        let hit = clock.measure {
            for _ in 0..<rounds { bytes = max(bytes, simulator.snapshot().combined.count) }
        }
        let model = try JSONDecoder().decode(CombinedStatistics.self, from: Data(simulator.snapshot().combined))
        let encoder = JSONEncoder()
        let viaEncoder = try clock.measure {
            for _ in 0..<20 { _ = try encoder.encode(model) }
        }
        print(
            """
            combinedStats: \(bytes) bytes
              rebuild (all stats responses) per generation: \(miss / rounds)
              cached snapshot per request:                  \(hit / rounds)
              JSONEncoder on the same model, for comparison: \(viaEncoder / 20)
            """)
    }
}
