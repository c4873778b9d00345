import Foundation
import Glibc
import HabitsSimulator
import Testing

@testable import HabitsAPI

/// Measures the two transports against a local keep-alive server. Opt-in (`HABITS_BENCH=1 swift test --filter
/// UpstreamClientBenchmarkTests`) because timings on a shared 2-core machine are noise for CI; it still checks
/// every answer, so it cannot pass on broken transports.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HABITS_BENCH"] == "1"), .serialized)
struct UpstreamClientBenchmarkTests {
    static let small = Array(#"[{"name":"Exercise","color":{"h":0.25,"s":1,"b":0.9}}]"#.utf8)
    static let large = Array(
        ("["
            + Array(repeating: #"{"name":"Exercise","color":{"h":0.25,"s":1,"b":0.9}}"#, count: 1800).joined(
                separator: ",") + "]").utf8)

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }

    private static func measure(
        _ name: String, transport: any HTTPTransport, target: String, expectedBytes: Int, calls: Int, concurrency: Int
    ) async throws -> String {
        let request = HTTPClientRequest(method: .get, target: target)
        for _ in 0..<50 { _ = try await transport.send(request) }
        let cpuStart = cpuSeconds()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    for _ in 0..<(calls / concurrency) {
                        let response = try await transport.send(request)
                        guard response.status == .ok, response.body.count == expectedBytes else {
                            throw HabitsAPIError.transport("wrong answer")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let wall = ContinuousClock.now - start
        let cpu = cpuSeconds() - cpuStart
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        let perCall = seconds * 1000 / Double(calls)
        return String(
            format: "%@: %.3f ms/call wall, %.3f ms/call CPU (server included), %d calls x%d",
            name, perCall, cpu * 1000 / Double(calls), calls, concurrency)
    }

    @Test func compareTransports() async throws {
        let server = try LoopbackServer { request in
            LoopbackServer.json(request.target == "/large" ? Self.large : Self.small)
        }
        defer { server.stop() }
        let configuration = UpstreamConfiguration(host: "127.0.0.1", port: server.port)
        let transports: [(String, any HTTPTransport)] = [
            ("socket", SocketTransport(configuration: configuration)),
            ("URLSession", URLSessionTransport(configuration: configuration)),
        ]
        var lines: [String] = []
        for (name, transport) in transports {
            lines.append(
                try await Self.measure(
                    "\(name) small", transport: transport, target: "/small", expectedBytes: Self.small.count,
                    calls: 2000, concurrency: 1))
            lines.append(
                try await Self.measure(
                    "\(name) 100KB", transport: transport, target: "/large", expectedBytes: Self.large.count,
                    calls: 300, concurrency: 1))
            lines.append(
                try await Self.measure(
                    "\(name) small", transport: transport, target: "/small", expectedBytes: Self.small.count,
                    calls: 2000, concurrency: 8))
        }
        print(lines.joined(separator: "\n"))
    }

    /// The same comparison against the embedded simulator (our HTTP server), on real endpoints.
    @Test func compareTransportsAgainstTheSimulator() async throws {
        let embedded = try startEmbeddedSimulator(port: 0, seed: 3, runSimulation: false, logger: .silent)
        embedded.simulator.step(2000)
        let configuration = UpstreamConfiguration(host: "127.0.0.1", port: embedded.port)
        let transports: [(String, any HTTPTransport)] = [
            ("socket", SocketTransport(configuration: configuration)),
            ("URLSession", URLSessionTransport(configuration: configuration)),
        ]
        let categories = try await transports[0].1.send(HTTPClientRequest(method: .get, target: "/categories"))
        let combined = try await transports[0].1.send(HTTPClientRequest(method: .get, target: "/combinedStats"))
        var lines: [String] = [
            "simulator: /categories \(categories.body.count) B, /combinedStats \(combined.body.count) B"
        ]
        for (name, transport) in transports {
            lines.append(
                try await Self.measure(
                    "\(name) sim /categories", transport: transport, target: "/categories",
                    expectedBytes: categories.body.count, calls: 2000, concurrency: 1))
            lines.append(
                try await Self.measure(
                    "\(name) sim /combinedStats", transport: transport, target: "/combinedStats",
                    expectedBytes: combined.body.count, calls: 300, concurrency: 1))
        }
        await embedded.shutdown()
        print(lines.joined(separator: "\n"))
    }
}
