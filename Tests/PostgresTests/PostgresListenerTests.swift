import Postgres
import TestSupport
import Testing
import Timing

@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct PostgresListenerTests {
    private func next(_ iterator: inout AsyncStream<PostgresListener.Event>.Iterator) async -> PostgresListener.Event? {
        await iterator.next()
    }

    // A hang guard only: it counts the throwaway server's initdb and start, which took over a minute with three CI
    // runs and a release build on 2 cores.
    @Test(.timeLimit(.minutes(5)))
    func deliversANotificationOnItsChannel() async throws {
        let server = try await ThrowawayPostgres.shared()
        let url = try DatabaseURL(try await server.makeDatabase())
        let listener = PostgresListener(url: url, clock: SystemTimeSource())
        var events = listener.subscribe(channels: ["habits_test"]).makeAsyncIterator()
        listener.start()
        defer { listener.stop() }
        let event1 = await next(&events)
        #expect(event1 == .connected)
        let pool = PostgresPool(url: url, clock: SystemTimeSource())
        _ = try await pool.run(Statement("SELECT pg_notify($1, $2)", ["other_channel", "x"], idempotent: false))
        _ = try await pool.run(Statement("SELECT pg_notify($1, $2)", ["habits_test", "b1 7"], idempotent: false))
        let event2 = await next(&events)
        #expect(event2 == .notification(Notification(channel: "habits_test", payload: "b1 7")))
    }

    // A hang guard only: it counts the throwaway server's initdb and start, which took over a minute with three CI
    // runs and a release build on 2 cores.
    @Test(.timeLimit(.minutes(5)))
    func listensAgainAfterARestartAndSaysSo() async throws {
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        let url = try DatabaseURL(server.url)
        var configuration = PostgresListener.Configuration()
        configuration.backoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(200))
        let listener = PostgresListener(url: url, configuration: configuration, clock: SystemTimeSource())
        var events = listener.subscribe(channels: ["habits_test"]).makeAsyncIterator()
        listener.start()
        defer { listener.stop() }
        let event3 = await next(&events)
        #expect(event3 == .connected)
        try await server.stop()
        guard case .lost = await next(&events) else {
            Issue.record("expected the loss to be reported")
            return
        }
        try await server.start()
        var event = await next(&events)
        while case .lost = event { event = await next(&events) }
        #expect(event == .reconnected)
        #expect(listener.reconnects == 1)
        let pool = PostgresPool(url: url, clock: SystemTimeSource())
        _ = try await pool.run(Statement("SELECT pg_notify($1, $2)", ["habits_test", "again"], idempotent: false))
        let event4 = await next(&events)
        #expect(event4 == .notification(Notification(channel: "habits_test", payload: "again")))
    }
}
