/// The one reconnect loop of the long-lived sessions (the PostgreSQL listener's session, the dashboard's database
/// preparation): runs a session again and again until the task is cancelled or a session says it is done, pausing
/// after each failure as `Backoff` says.
public enum RetryLoop {
    /// What a session that returned (rather than threw) asks for.
    public enum Next: Sendable, Equatable {
        /// Start the next session at once (the last one ended without failing).
        case again
        /// Stop the loop.
        case done
    }

    /// Runs `session` until the task is cancelled or it returns `.done`. A session that throws is followed by a pause
    /// on `clock` from `backoff`, doubling while sessions keep failing, counted from the session's start when it never
    /// connected (from its failure when it did); a session that calls `connected()` once it is up starts the schedule
    /// over, so the first failure after a healthy stretch waits only `backoff.initial`.
    /// `pauseFirst`: the caller's own first attempt failed already, so the loop starts with a pause.
    public static func run(
        backoff: Backoff, clock: any TimeSource, pauseFirst: Bool = false,
        session: (_ connected: () -> Void) async throws -> Next
    ) async {
        var backoff = backoff
        if pauseFirst { await clock.sleep(until: backoff.failed(at: clock.now)) }
        while !Task.isCancelled {
            let start = clock.now
            var up = false
            do {
                if try await session({
                    up = true
                    backoff.succeeded()
                }) == .done {
                    return
                }
            } catch {
                // An attempt that never connected is paused from its start: one that hung until its deadline (a
                // partition drops the SYNs silently) has waited already, so the next goes out at once and a healed
                // network is found at the next SYN, within about a second, not a deadline plus a pause later (3-4 s
                // after the heal in issue 49's namespace cluster). One refused at once pauses as before.
                await clock.sleep(until: backoff.failed(at: up ? clock.now : start))
            }
        }
    }
}
