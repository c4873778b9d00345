import CommandLineKit
import Testing

@testable import HabitsSimulator

@Suite struct SimulatorOptionsTests {
    @Test func noFlagsGiveTheDefaults() throws {
        #expect(try SimulatorOptions.parse([]) == .run(SimulatorOptions()))
        #expect(
            SimulatorOptions().port == 8080 && SimulatorOptions().speed == 1 && SimulatorOptions().simulationEnabled)
    }

    @Test func everyFlagIsRead() throws {
        let outcome = try SimulatorOptions.parse([
            "--port", "0", "--host", "198.18.0.3", "--speed", "2.5", "--seed", "7", "--data-dir", "/tmp/data",
            "--no-simulation",
            "--no-history",
        ])
        var expected = SimulatorOptions(
            port: 0, speed: 2.5, seed: 7, dataDirectory: "/tmp/data", simulationEnabled: false, history: false)
        expected.host = "198.18.0.3"
        #expect(outcome == .run(expected))
    }

    @Test func helpWinsWhenGiven() throws {
        #expect(try SimulatorOptions.parse(["--port", "1", "--help"]) == .help)
        #expect(SimulatorOptions.usage.contains("--no-simulation"))
        #expect(SimulatorOptions.usage.contains("--no-history"))
        let columns = Set(
            SimulatorOptions.usage.split(separator: "\n").compactMap { line in
                line.range(of: "  default ").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            })
        #expect(columns.count == 1, "the default column lines up")
    }

    @Test(arguments: [["--speed", "0"], ["--speed", "20"], ["--port", "x"], ["--upstream", "http://x"], ["extra"]])
    func badCommandLinesAreRejected(arguments: [String]) {
        #expect(throws: CommandLineError.self) { try SimulatorOptions.parse(arguments) }
    }
}
