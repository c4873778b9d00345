import Foundation
import Synchronization

/// The shared cache in front of the Habits API: one per dashboard process, used by every request handler.
///
/// - Concurrent identical requests coalesce: the first caller starts one upstream fetch, the rest await it.
/// - A good answer is reused for its endpoint's TTL (`CachePolicy`), so many browsers polling cost the upstream
///   about as much as one.
/// - The last good value of every request is kept with its time. When a refresh fails, callers get that value
///   marked stale (`Cached.isStale`, `asOf`) instead of an error; only a request never answered well throws.
/// - Stale-while-revalidate: an expired value younger than `CachePolicy.staleWhileRevalidate` is returned at once
///   while one background refresh runs (started by the first such caller, joined by the rest), so a hanging
///   upstream never makes a page load wait the total timeout. Callers with no value, or one older than the bound,
///   wait for the upstream. With a healthy upstream a poll sees data one poll old at most.
/// - A failure is remembered for `failureTTL` only. While the upstream is known to be failing, callers that have a
///   stale value get it at once instead of queueing behind a retry that may take the whole timeout.
/// - Memory is bounded by entry count (`maxEntries`) and, for image bodies, by bytes: each image at most
///   `maxImageBytes` (bigger ones are failures, never cached) and all of them within `imageBudgetBytes`.
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
        /// Set when the entry is invalidated (a habit was logged): the next reader waits for the upstream instead of
        /// getting the old value, so the page after the log shows it.
        var mustRevalidate = false
        var lastUsed = Date.distantPast
        /// Bytes of the cached image body (0 for everything else), counted in `CacheMetrics.imageBytes`.
        var imageBytes = 0
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
        let isNew = state.entries[key] == nil
        var entry = state.entries[key] ?? Entry(endpoint: request.endpoint)
        entry.lastUsed = now
        defer {
            state.entries[key] = entry
            if isNew { evictIfNeeded(&state, keeping: key) }
        }
        let failing = entry.failure.map { now < $0.until } ?? false
        guard let value = entry.value as? R.Response else {
            if failing, let failure = entry.failure { return .failed(failure.error) }
            return .wait(join(request, key: key, entry: &entry, state: &state))
        }
        if now < entry.freshUntil {
            state.metrics.hits += 1
            return .ready(Cached(value: value, asOf: entry.fetchedAt, isStale: false))
        }
        let age = now.timeIntervalSince(entry.fetchedAt)
        let withinBound = age < policy.staleWhileRevalidate
        let stale = Cached(value: value, asOf: entry.fetchedAt, isStale: entry.failure != nil || !withinBound)
        if withinBound && !entry.mustRevalidate {
            // Stale-while-revalidate: answer now; refresh behind the caller's back unless a refresh is already
            // running or the upstream failed a moment ago (then the failure window holds retries back).
            if entry.inflight == nil && !failing {
                state.metrics.upstreamCalls[request.endpoint, default: 0] += 1
                entry.inflight = start(request, key: key, generation: entry.generation)
            }
            if stale.isStale { state.metrics.staleServed += 1 } else { state.metrics.servedWhileRefreshing += 1 }
            return .ready(stale)
        }
        // Too old (or invalidated) to serve as current: wait for the upstream, unless it is known to be failing.
        if failing || (entry.failure != nil && entry.inflight != nil) {
            state.metrics.staleServed += 1
            return .ready(Cached(value: value, asOf: entry.fetchedAt, isStale: true))
        }
        return .wait(join(request, key: key, entry: &entry, state: &state))
    }

    /// The fetch in flight for `entry` (counted as coalesced), or a new one.
    private func join<R: APIRequest>(
        _ request: R, key: String, entry: inout Entry, state: inout State
    ) -> Task<any Sendable, any Error> {
        if let inflight = entry.inflight {
            state.metrics.coalesced += 1
            return inflight
        }
        state.metrics.upstreamCalls[request.endpoint, default: 0] += 1
        let task = start(request, key: key, generation: entry.generation)
        entry.inflight = task
        return task
    }

    private func start<R: APIRequest>(_ request: R, key: String, generation: Int) -> Task<any Sendable, any Error> {
        Task<any Sendable, any Error> { try await self.fetch(request, key: key, generation: generation) }
    }

    /// Runs one upstream fetch and records its outcome; every caller waiting on it gets the same answer.
    private func fetch<R: APIRequest>(_ request: R, key: String, generation: Int) async throws -> Cached<R.Response> {
        do {
            let value = try await request.fetch(from: upstream)
            let imageBytes = (value as? ImageRequest.Response)?.bytes.count ?? 0
            guard imageBytes <= policy.maxImageBytes else {
                throw HabitsAPIError.decoding(
                    type: "image", detail: "\(imageBytes) bytes, over the \(policy.maxImageBytes)-byte limit")
            }
            let fetchedAt = now()
            state.withLock { state in
                guard var entry = state.entries[key], entry.generation == generation else { return }
                state.metrics.imageBytes += imageBytes - entry.imageBytes
                entry.imageBytes = imageBytes
                entry.value = value
                entry.fetchedAt = fetchedAt
                entry.freshUntil = fetchedAt.addingTimeInterval(policy.ttl(for: request.endpoint))
                entry.failure = nil
                entry.inflight = nil
                entry.mustRevalidate = false
                state.entries[key] = entry
                if imageBytes > 0 { evictImagesOverBudget(&state, keeping: key) }
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
                entry.mustRevalidate = true
                state.entries[key] = entry
            }
        }
    }

    /// Drops the least recently used entries that are not being fetched, once there are too many.
    private func evictIfNeeded(_ state: inout State, keeping key: String) {
        guard state.entries.count > policy.maxEntries else { return }
        let victims = state.entries.filter { $0.value.inflight == nil && $0.key != key }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
            .prefix(max(1, policy.maxEntries / 10))
        for (key, _) in victims { remove(key, from: &state) }
    }

    /// Drops the least recently used images (not `key`, just stored) until the image bodies fit the byte budget.
    private func evictImagesOverBudget(_ state: inout State, keeping key: String) {
        guard state.metrics.imageBytes > policy.imageBudgetBytes else { return }
        let images = state.entries.filter { $0.value.imageBytes > 0 && $0.value.inflight == nil && $0.key != key }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (victim, _) in images {
            guard state.metrics.imageBytes > policy.imageBudgetBytes else { return }
            remove(victim, from: &state)
        }
    }

    private func remove(_ key: String, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: key) else { return }
        state.metrics.imageBytes -= entry.imageBytes
    }
}
