import Foundation
import HabitsAPI
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 3: the counters on a loopback listener of their own (`--metrics-port`), never on the public one.
extension DashboardServiceTests {
    func get(port: Int, _ target: String) async throws -> HTTPClientResponse {
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: port)
        // Hang guards only, as `get(_:_:)`'s.
        configuration.connectTimeout = .seconds(120)
        configuration.totalTimeout = .seconds(120)
        return try await SocketTransport(configuration: configuration).send(
            HTTPClientRequest(method: .get, target: target))
    }

    @Test func metricsAreServedOnTheirOwnPortOnlyAndThePublicOneAnswers404() async throws {
        try prepareCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var options = DashboardOptions(port: 0, settingsDirectory: root + "/settings", cacheDirectory: cacheDirectory)
        options.metricsPort = 0
        let service = try DashboardService.start(
            options: options, upstream: Self.deadUpstream, clock: ManualClock(), logger: .silent)
        let metricsPort = try #require(service.metricsPort)
        #expect(metricsPort != service.port)
        let metrics = try await get(port: metricsPort, "/metrics")
        #expect(metrics.status == .ok)
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains("habits_upstream_calls_total"))
        // Every cache, the images kept in memory too (32 MiB).
        #expect(text.contains("habits_cache_budget_bytes{cache=\"images\"} 33554432\n"))
        #expect(try await get(port: service.port, "/metrics").status == .notFound)
        // The metrics port serves nothing else: no page, no health.
        #expect(try await get(port: metricsPort, "/").status == .notFound)
        #expect(try await get(port: metricsPort, "/healthz").status == .notFound)
        await service.shutdown()
    }

    @Test func withoutAMetricsPortTheCountersAreServedNowhere() async throws {
        try prepareCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let service = try start()
        #expect(service.metricsPort == nil)
        #expect(try await get(port: service.port, "/metrics").status == .notFound)
        await service.shutdown()
    }
}
