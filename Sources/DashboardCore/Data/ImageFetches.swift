import HTTPCore
import HabitsAPI
import Synchronization
import Timing

/// Carries out `ImageFetchState` for the profile images: one upstream call per image at a time, shared by everyone
/// asking meanwhile, failures remembered, and a bounded number of requests waiting on the upstream.
final class ImageFetches: Sendable {
    /// An image as the upstream gives it.
    typealias Image = (bytes: [UInt8], contentType: String)

    /// Too many requests wait on the upstream: answered at once with 503 and `Retry-After`.
    struct Overloaded: HTTPResponseError, ErrorResponseHeaders {
        var status: HTTPStatus { .serviceUnavailable }
        var publicMessage: String { "Too many profile images are being fetched; try again in a few seconds." }
        /// RFC 9110 §10.2.3.
        var responseHeaders: [(name: String, value: String)] { [("Retry-After", "5")] }
    }

    private struct State {
        var plan: ImageFetchState
        /// Who waits for each image in flight, tagged with its id (the caller waits on its own call; `ImageFetchState`
        /// bounds how many wait, so finding an image's joiners by scanning is cheap).
        var joiners = WaiterRegistry<String, Result<Image, any Error>>()
        /// Why each remembered failure failed, to fail the same way again.
        var errors: [String: any Error] = [:]
    }

    private let state: Mutex<State>
    private let clock: any TimeSource

    /// Fetches under `policy`, timed by `clock`.
    init(policy: ImageFetchState.Policy = .init(), clock: any TimeSource = SystemTimeSource()) {
        state = Mutex(State(plan: ImageFetchState(policy: policy)))
        self.clock = clock
    }

    /// Image `id`: `fetch`'s answer, shared with whoever asks for it meanwhile; a remembered failure's error at
    /// once; `Overloaded` when too many wait already.
    func image(id: String, fetch: () async throws -> Image) async throws -> Image {
        let decision = state.withLock { state -> ImageFetchState.Decision in
            let decision = state.plan.request(id, now: clock.now)
            if decision == .fetch || decision == .overloaded { state.errors[id] = nil }
            return decision
        }
        switch decision {
        case .overloaded:
            throw Overloaded()
        case .failed:
            throw state.withLock { $0.errors[id] } ?? Overloaded()
        case .join:
            return try await withCheckedContinuation { continuation in
                let late = state.withLock { state -> Bool in
                    guard state.plan.inFlight[id] != nil else { return true }
                    state.joiners.add(id, continuation)
                    return false
                }
                // The call ended between the decision and here: ask again.
                if late { continuation.resume(returning: .failure(Overloaded())) }
            }.get()
        case .fetch:
            let result: Result<Image, any Error>
            do {
                result = .success(try await fetch())
            } catch {
                result = .failure(error)
            }
            let joiners = state.withLock { state in
                var failed = false
                if case .failure(let error) = result, !(error is CancellationError) {
                    failed = true
                    state.errors[id] = error
                }
                state.plan.finished(id, failed: failed, now: clock.now)
                if state.errors.count > state.plan.failures.count {
                    state.errors = state.errors.filter { state.plan.failures[$0.key] != nil }
                }
                return state.joiners.removeAll { $0 == id }
            }
            for joiner in joiners { joiner.resume(result) }
            return try result.get()
        }
    }

    /// Requests waiting on the upstream now, and failed images remembered.
    var counts: (waiting: Int, failures: Int) { state.withLock { ($0.plan.waiting, $0.plan.failures.count) } }
}
