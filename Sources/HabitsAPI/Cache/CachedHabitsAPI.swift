import Foundation
import Synchronization

/// The shared cache in front of the Habits API: one per dashboard process, used by every request handler.
///
/// - Concurrent identical requests coalesce: the first caller starts one upstream fetch, the rest await it.
/// - A good answer is reused for its endpoint's TTL (`CachePolicy`), so many browsers polling cost the upstream
///   about as much as one.
/// - The last good value of every request is kept with its time. When a refresh fails, callers get that value
///   marked stale (`Cached.isStale`, `asOf`) instead of an error; only a request never answered well throws.
/// - A failure is remembered for `failureTTL` only. While the upstream is known to be failing, callers that have a
///   stale value get it at once instead of queueing behind a retry that may take the whole timeout.
/// - Logging a habit passes straight through and expires the statistics, so the next page shows the new count.
///
/// Time comes from the injected `now`, so tests drive TTLs with a manual clock.
public final class CachedHabitsAPI: HabitsAPI {
    private let upstream: any HabitsAPI
    private let policy: CachePolicy
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    private struct Entry {
        var endpoint: Endpoint
        var value: (any Sendable)?
        var fetchedAt = Date.distantPast
        var freshUntil = Date.distantPast
        /// Set by a failed fetch, cleared by a good one; `until` ends the window in which nobody retries.
        var failure: (error: any Error, until: Date)?
        var inflight: Task<any Sendable, any Error>?
        /// Bumped when the entry is invalidated, so a fetch started before then cannot store its older answer.
        var generation = 0
        var lastUsed = Date.distantPast
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var metrics = CacheMetrics()
    }

    private enum Decision {
        case ready(any Sendable)
        case failed(any Error)
        case wait(Task<any Sendable, any Error>)
    }

    /// Creates a cache in front of `upstream`.
    public init(
        upstream: any HabitsAPI, policy: CachePolicy = CachePolicy(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.upstream = upstream
        self.policy = policy
        self.now = now
    }

    /// A snapshot of the counters.
    public var metrics: CacheMetrics { state.withLock { $0.metrics } }

    /// The answer to `request`: fresh from the cache, fetched (once, however many callers ask at the same time),
    /// or the last good value marked stale if the upstream fails. Throws only when there is no good value at all.
    public func load<R: APIRequest>(_ request: R) async throws -> Cached<R.Response> {
        let key = request.method + " " + request.target
        let decision = state.withLock { state in decide(request, key: key, state: &state) }
        let outcome: any Sendable
        switch decision {
        case .ready(let value): outcome = value
        case .failed(let error): throw error
        case .wait(let task): outcome = try await task.value
        }
        guard let cached = outcome as? Cached<R.Response> else {
            throw HabitsAPIError.decoding(type: String(describing: R.Response.self), detail: "cache type mismatch")
        }
        return cached
    }

    private func decide<R: APIRequest>(_ request: R, key: String, state: inout State) -> Decision {
        let now = now()
        var entry = state.entries[key] ?? Entry(endpoint: request.endpoint)
        entry.lastUsed = now
        defer { state.entries[key] = entry }
        if let value = entry.value as? R.Response, now < entry.freshUntil {
            state.metrics.hits += 1
            return .ready(Cached(value: value, asOf: entry.fetchedAt, isStale: false))
        }
        if let failure = entry.failure {
            let stale = (entry.value as? R.Response).map { Cached(value: $0, asOf: entry.fetchedAt, isStale: true) }
            if now < failure.until || entry.inflight != nil {
                if let stale {
                    state.metrics.staleServed += 1
                    return .ready(stale)
                }
                if now < failure.until { return .failed(failure.error) }
            }
        }
        if let inflight = entry.inflight {
            state.metrics.coalesced += 1
            return .wait(inflight)
        }
        state.metrics.upstreamCalls[request.endpoint, default: 0] += 1
        let generation = entry.generation
        let task = Task<any Sendable, any Error> {
            try await self.fetch(request, key: key, generation: generation)
        }
        entry.inflight = task
        if state.entries[key] == nil { evictIfNeeded(&state) }
        return .wait(task)
    }

    /// Runs one upstream fetch and records its outcome; every caller waiting on it gets the same answer.
    private func fetch<R: APIRequest>(_ request: R, key: String, generation: Int) async throws -> Cached<R.Response> {
        do {
            let value = try await request.fetch(from: upstream)
            let fetchedAt = now()
            state.withLock { state in
                guard var entry = state.entries[key], entry.generation == generation else { return }
                entry.value = value
                entry.fetchedAt = fetchedAt
                entry.freshUntil = fetchedAt.addingTimeInterval(policy.ttl(for: request.endpoint))
                entry.failure = nil
                entry.inflight = nil
                state.entries[key] = entry
            }
            return Cached(value: value, asOf: fetchedAt, isStale: false)
        } catch {
            let failedAt = now()
            let stale: Cached<R.Response>? = state.withLock { state in
                state.metrics.upstreamFailures[request.endpoint, default: 0] += 1
                guard var entry = state.entries[key] else { return nil }
                if entry.generation == generation {
                    entry.failure = (error, failedAt.addingTimeInterval(policy.failureTTL))
                    entry.inflight = nil
                    state.entries[key] = entry
                }
                guard let value = entry.value as? R.Response else { return nil }
                state.metrics.staleServed += 1
                return Cached(value: value, asOf: entry.fetchedAt, isStale: true)
            }
            if let stale { return stale }
            throw error
        }
    }

    /// Logs straight through (never cached), then expires the statistics so the next page shows the new count.
    public func log(_ habit: LoggedHabit) async throws {
        state.withLock { $0.metrics.upstreamCalls[.logHabit, default: 0] += 1 }
        defer { invalidateStatistics() }
        do {
            try await upstream.log(habit)
        } catch {
            state.withLock { $0.metrics.upstreamFailures[.logHabit, default: 0] += 1 }
            throw error
        }
    }

    /// Expires every statistics entry (keeping its value as the stale fallback) so the next read refetches.
    public func invalidateStatistics() {
        state.withLock { state in
            for (key, entry) in state.entries where entry.endpoint.isLive {
                var entry = entry
                entry.freshUntil = .distantPast
                entry.inflight = nil
                entry.generation += 1
                state.entries[key] = entry
            }
        }
    }

    /// Drops the least recently used entries that are not being fetched, once there are too many.
    private func evictIfNeeded(_ state: inout State) {
        guard state.entries.count >= policy.maxEntries else { return }
        let victims = state.entries.filter { $0.value.inflight == nil }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
            .prefix(max(1, policy.maxEntries / 10))
        for (key, _) in victims { state.entries[key] = nil }
    }
}
