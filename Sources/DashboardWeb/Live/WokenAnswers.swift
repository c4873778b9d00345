import HTTPServer
import Synchronization

/// The answers of parked polls woken by one change, shared by the polls that asked the same (issue 46 point 2: "one
/// rendering per change per variant, written to every waiting viewer from shared bytes"). A change wakes every
/// parked poll at once, and thousands of them hold the same request: the first one of each variant looks again
/// (view, fragment, If-None-Match, encoding) and the rest get its 200, whose body is the render cache's bytes.
///
/// Only polls without a browser's settings share (their fragment depends on the view alone), and only 200s (a poll
/// that parks again decides for itself). What is kept is for one value of `DashboardState.changes`, and at most
/// `limit` variants of it: the first poll of a newer change drops it all.
final class WokenAnswers: Sendable {
    /// What a woken poll's 200 depends on besides the view.
    struct Key: Hashable, Sendable {
        /// The path and query.
        let target: String
        /// The browser's copy, as it named it.
        let ifNoneMatch: String?
        /// What decides the encoding.
        let acceptEncoding: String?
        /// The wait granted (Preference-Applied).
        let wait: Int

        /// `request`'s key, granted `wait` seconds.
        init(_ request: Request, wait: Int) {
            target = request.head.target
            ifNoneMatch = request.headers["If-None-Match"]
            acceptEncoding = request.headers["Accept-Encoding"]
            self.wait = wait
        }
    }

    /// The most variants kept for one change.
    static let limit = 64

    private let kept = Mutex<(changes: UInt64, answers: [Key: Response])>((0, [:]))

    /// Nothing kept.
    init() {}

    /// The 200 kept for `key` under `changes`, if any.
    func answer(for key: Key, changes: UInt64) -> Response? {
        kept.withLock { $0.changes == changes ? $0.answers[key] : nil }
    }

    /// Keeps `answer` (a 200) for `key`, made from a view at least as new as `changes`.
    func keep(_ answer: Response, for key: Key, changes: UInt64) {
        kept.withLock { kept in
            if kept.changes != changes { kept = (changes, [:]) }
            guard kept.answers.count < Self.limit else { return }
            kept.answers[key] = answer
        }
    }
}
