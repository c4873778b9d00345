import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The sampler keeps the trend history going while nobody watches (issue 10 point 4), on the manual clock.
@Suite final class TrendSamplerTests {
    let scripted: ScriptedApp

    init() throws { scripted = try ScriptedApp(name: "sampler") }

    static func yogaSamples(_ snapshots: SnapshotStore) -> Int {
        snapshots.history.habitTrend("Yoga")?.samples.compactMap { $0 }.count ?? 0
    }

    @Test func recordsASampleEverySlotWithNobodyWatching() async throws {
        let (snapshots, clock) = (scripted.snapshots, scripted.clock)
        let sampler = Task { await TrendSampler(store: snapshots, clock: clock).run() }
        defer { sampler.cancel() }
        #expect(Self.yogaSamples(snapshots) == 0)
        for slot in 1...3 {
            // The sampler must have read the clock before it is moved (later slots follow from the first deadline).
            await eventually("the sampler waits for slot \(slot)") { clock.sleeperCount >= 1 }
            scripted.data.logYoga()
            clock.advance(by: .seconds(10))
            await eventually("sample \(slot)") { Self.yogaSamples(snapshots) == slot }
        }
        let samples = try #require(snapshots.history.habitTrend("Yoga")?.samples)
        #expect(samples.suffix(3).allSatisfy { $0 != nil }, "three consecutive slots, no gap")
    }

    @Test func stopsWhenCancelled() async {
        let (snapshots, clock) = (scripted.snapshots, scripted.clock)
        let sampler = Task { await TrendSampler(store: snapshots, clock: clock).run() }
        await eventually("the sampler waits") { clock.sleeperCount == 1 }
        sampler.cancel()
        await sampler.value
        clock.advance(by: .seconds(60))
        #expect(Self.yogaSamples(snapshots) == 0)
    }
}
