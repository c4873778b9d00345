import Foundation
import Postgres
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

/// `PostgresSettingsStore`'s sweep, its start at the row cap and its hourly read marks, against a real throwaway
/// PostgreSQL with the store's wall clock a `ManualClock`. The store's listener is never started, so nothing is
/// kept in memory and every read goes to the database (and marks it when due).
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct PostgresSettingsSweepTests {
    let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))
    let database: DashboardDatabase
    let url: DatabaseURL

    init() async throws {
        url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        database = try await DashboardDatabase.open(url, logger: .silent)
        await eventually("the schema and the secret are there") { [database] in database.isPrepared }
    }

    /// A store keeping `maxRows` rows for `maxAgeDays`; reads wait up to a hang guard, never the production 500 ms.
    func store(maxRows: Int = 100, maxAgeDays: Double = 400) throws -> PostgresSettingsStore<Settings> {
        try PostgresSettingsStore(
            pool: database.pool, listener: PostgresListener(url: url, clock: SystemTimeSource()),
            signers: database.signers, defaultValue: Settings(), maxRows: maxRows, maxAge: maxAgeDays * 86_400,
            logger: .silent, clock: clock,
            readTimeout: .seconds(60))
    }

    /// A new browser with one favourite, written now.
    func written(_ store: PostgresSettingsStore<Settings>) async throws -> BrowserID {
        let id = BrowserID.random()
        try await store.update(id) { $0.toggleFavorite("Yoga") }
        return id
    }

    /// The browsers with a row, and each row's `accessed_ns`.
    func accessed() async throws -> [String: Int64] {
        let rows = try await database.pool.run(
            Statement("SELECT browser_id, accessed_ns FROM browser_settings", idempotent: true)
        ).rows
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] ?? "", Int64($0[1] ?? "") ?? 0) })
    }

    /// Waits for the rows to satisfy `condition` (a read mark or a background sweep is a task of its own); 120 s of
    /// wall time is a hang guard.
    func until(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([String: Int64]) -> Bool
    ) async throws {
        let start = ContinuousClock.now
        while !condition(try await accessed()) {
            guard ContinuousClock.now - start < .seconds(120) else {
                Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The store's nanoseconds now.
    var now: Int64 { SettingsStore<Settings>.nanoseconds(clock.date) }

    @Test(.timeLimit(.minutes(3)))
    func sweepDeletesExpiredRowsThenTheNeverReadThenTheLeastRecentlyUsed() async throws {
        // The rows are written and read through a store with room for them, so no sweep starts before the one
        // asked for; the sweeping store's clock is the same.
        let store = try store()
        let sweeper = try self.store(maxRows: 2, maxAgeDays: 10)
        let expired = try await written(store)
        clock.advance(days: 11)
        let neverRead = try await written(store)
        var read: [BrowserID] = []
        for _ in 0..<3 {
            clock.advance(by: .seconds(1))
            read.append(try await written(store))
        }
        // Read in the order 1, 0, 2: the least recently used is read[1], though read[0] was written first.
        for index in [1, 0, 2] {
            clock.advance(by: .seconds(60))
            let mark = now
            _ = try await store.loadVersioned(read[index])
            try await until("the read mark of \(index)") { $0[read[index].rawValue] == mark }
        }
        try await sweeper.sweep()
        let left = try await accessed()
        #expect(Set(left.keys) == [read[0].rawValue, read[2].rawValue])
        #expect(left[expired.rawValue] == nil && left[neverRead.rawValue] == nil)
        #expect(await sweeper.fileCount() == 2)
    }

    @Test(.timeLimit(.minutes(3)))
    func aNewBrowserOverTheCapStartsASweepAndIsKept() async throws {
        let store = try store(maxRows: 2)
        var ids: [BrowserID] = []
        for _ in 0..<3 {
            clock.advance(by: .seconds(1))
            ids.append(try await written(store))
        }
        // Three rows over a cap of two: the oldest written goes in the background, the new one stays.
        try await until("the background sweep") { $0.count == 2 }
        #expect(Set(try await accessed().keys) == [ids[1].rawValue, ids[2].rawValue])
        await eventually("the count read back") { [store] in store.state.withLock { $0.rows } == 2 }
    }

    @Test(.timeLimit(.minutes(3)))
    func aReadIsMarkedAtTheFirstReadThenAtMostHourly() async throws {
        let store = try store()
        let id = try await written(store)
        let writtenAt = try #require(try await accessed()[id.rawValue])
        // Written once and never read: the first read marks it, whatever the time.
        clock.advance(by: .seconds(1))
        let first = now
        _ = try await store.loadVersioned(id)
        try await until("the first read's mark") { $0[id.rawValue] == first }
        #expect(first > writtenAt)
        // Within the hour no read marks; the first read an hour after the mark does.
        clock.advance(by: .seconds(1800))
        _ = try await store.loadVersioned(id)
        clock.advance(by: .seconds(1800))
        let hourly = now
        _ = try await store.loadVersioned(id)
        try await until("the hourly mark") { $0[id.rawValue] == hourly }
    }
}
