import Foundation
import Synchronization
import Timing

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
/// The age rules are the pure `Freshness`; this class runs what it decides. Each entry is a `CacheEntry` typed by
/// its request's `Response`, so an answer goes back to its caller with its own type. Time comes from the injected
/// `TimeSource`: TTLs and recency on its monotonic `now`, `Cached.asOf` from its wall-clock `date`; tests drive both
/// with a manual clock.
public final class CachedHabitsAPI: HabitsAPI {
    private let upstream: any HabitsAPI
    private let policy: CachePolicy
    private let clock: any TimeSource
    private let state = Mutex(State())

    private struct State {
        var entries: [String: any AnyCacheEntry] = [:]
        var metrics = CacheMetrics()

        /// The entry of `request`. The one place an entry's type is recovered, from the request's own `Response`:
        /// the key (method and target) belongs to exactly one request type.
        func entry<R: APIRequest>(for request: R, key: String) -> CacheEntry<R.Response>? {
            entries[key] as? CacheEntry<R.Response>
        }
    }

    private enum Action<Response: Sendable> {
        case ready(Cached<Response>)
        case failed(any Error)
        case wait(Task<Cached<Response>, any Error>)
    }

    /// Creates a cache in front of `upstream`.
    public init(
        upstream: any HabitsAPI, policy: CachePolicy = CachePolicy(), clock: any TimeSource = SystemTimeSource()
    ) {
        self.upstream = upstream
        self.policy = policy
        self.clock = clock
    }

    /// A snapshot of the counters.
    public var metrics: CacheMetrics { state.withLock { $0.metrics } }

    /// The answer to `request`: fresh from the cache, fetched (once, however many callers ask at the same time),
    /// or the last good value marked stale if the upstream fails. Throws only when there is no good value at all.
    /// A write passes straight through and expires the statistics, so the next page shows it.
    public func load<R: APIRequest>(_ request: R) async throws -> Cached<R.Response> {
        if request.endpoint.lifetime == .write { return try await passThrough(request) }
        let key = request.method + " " + request.target
        switch state.withLock({ state in act(on: request, key: key, state: &state) }) {
        case .ready(let cached): return cached
        case .failed(let error): throw error
        case .wait(let task): return try await task.value
        }
    }

    /// The plain `HabitsAPI` view: values only (stale ones included), for code that needs no "as of".
    public func send<R: APIRequest>(_ request: R) async throws -> R.Response { try await load(request).value }

    /// Runs what `Freshness` decides for one read.
    private func act<R: APIRequest>(on request: R, key: String, state: inout State) -> Action<R.Response> {
        let now = clock.now
        let isNew = state.entries[key] == nil
        var entry =
            state.entry(for: request, key: key)
            ?? CacheEntry(endpoint: request.endpoint, policy: Freshness.Policy(policy, for: request.endpoint), now: now)
        entry.lastUsed = now
        defer {
            state.entries[key] = entry
            if isNew { evictIfNeeded(&state, keeping: key) }
        }
        switch entry.freshness.decide(now: now) {
        case .fresh:
            if let cached = entry.cached(isStale: false) {
                state.metrics.hits += 1
                return .ready(cached)
            }
        case .serve(let isStale, let startRefresh):
            if let cached = entry.cached(isStale: isStale) {
                if startRefresh { _ = startFetch(request, key: key, entry: &entry, state: &state) }
                if isStale { state.metrics.staleServed += 1 } else { state.metrics.servedWhileRefreshing += 1 }
                return .ready(cached)
            }
        case .failed:
            if let error = entry.error { return .failed(error) }
        case .wait:
            break
        }
        if let inflight = entry.inflight {
            state.metrics.coalesced += 1
            return .wait(inflight)
        }
        return .wait(startFetch(request, key: key, entry: &entry, state: &state))
    }

    private func startFetch<R: APIRequest>(
        _ request: R, key: String, entry: inout CacheEntry<R.Response>, state: inout State
    ) -> Task<Cached<R.Response>, any Error> {
        state.metrics.upstreamCalls[request.endpoint, default: 0] += 1
        let generation = entry.freshness.fetchStarted()
        let task = Task { try await self.fetch(request, key: key, generation: generation) }
        entry.inflight = task
        return task
    }

    /// Runs one upstream fetch and records its outcome; every caller waiting on it gets the same answer.
    private func fetch<R: APIRequest>(_ request: R, key: String, generation: Int) async throws -> Cached<R.Response> {
        do {
            let value = try await upstream.send(request)
            let imageBytes = request.countedBytes(of: value)
            guard imageBytes <= policy.maxImageBytes else {
                throw HabitsAPIError.decoding(
                    type: "image", detail: "\(imageBytes) bytes, over the \(policy.maxImageBytes)-byte limit")
            }
            let (fetchedAt, fetchedDate) = (clock.now, clock.date)
            state.withLock { state in
                guard var entry = state.entry(for: request, key: key),
                    entry.freshness.fetchSucceeded(generation: generation, at: fetchedAt, date: fetchedDate)
                else { return }
                state.metrics.imageBytes += imageBytes - entry.imageBytes
                entry.imageBytes = imageBytes
                entry.value = value
                entry.error = nil
                entry.inflight = nil
                state.entries[key] = entry
                if imageBytes > 0 { evictImagesOverBudget(&state, keeping: key) }
            }
            return Cached(value: value, asOf: fetchedDate, isStale: false)
        } catch {
            let failedAt = clock.now
            let stale: Cached<R.Response>? = state.withLock { state in
                state.metrics.upstreamFailures[request.endpoint, default: 0] += 1
                guard var entry = state.entry(for: request, key: key) else { return nil }
                if entry.freshness.fetchFailed(generation: generation, at: failedAt) {
                    entry.error = error
                    entry.inflight = nil
                    state.entries[key] = entry
                }
                guard let stale = entry.cached(isStale: true) else { return nil }
                state.metrics.staleServed += 1
                return stale
            }
            if let stale { return stale }
            throw error
        }
    }

    /// A write: sent straight through (never cached), then the statistics expire so the next page shows it.
    private func passThrough<R: APIRequest>(_ request: R) async throws -> Cached<R.Response> {
        state.withLock { $0.metrics.upstreamCalls[request.endpoint, default: 0] += 1 }
        defer { invalidateStatistics() }
        do {
            return Cached(value: try await upstream.send(request), asOf: clock.date, isStale: false)
        } catch {
            state.withLock { $0.metrics.upstreamFailures[request.endpoint, default: 0] += 1 }
            throw error
        }
    }

    /// Expires every statistics entry (keeping its value as the stale fallback) so the next read refetches.
    public func invalidateStatistics() {
        state.withLock { state in
            for (key, var entry) in state.entries where entry.endpoint.isLive {
                entry.invalidate()
                state.entries[key] = entry
            }
        }
    }

    /// Drops the least recently used entries that are not being fetched, once there are too many.
    private func evictIfNeeded(_ state: inout State, keeping key: String) {
        guard state.entries.count > policy.maxEntries else { return }
        let victims = state.entries.filter { !$0.value.isFetching && $0.key != key }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }
            .prefix(max(1, policy.maxEntries / 10))
        for (key, _) in victims { remove(key, from: &state) }
    }

    /// Drops the least recently used images (not `key`, just stored) until the image bodies fit the byte budget.
    private func evictImagesOverBudget(_ state: inout State, keeping key: String) {
        guard state.metrics.imageBytes > policy.imageBudgetBytes else { return }
        let images = state.entries.filter { $0.value.imageBytes > 0 && !$0.value.isFetching && $0.key != key }
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
