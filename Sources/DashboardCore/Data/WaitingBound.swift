/// How many requests of one kind may wait on the upstream at once (issue 23 point 3: a slow upstream must not let
/// one kind of request hold every connection): a request enters or is turned away at once, never queued, so that it
/// can be answered with what needs no upstream or a quick 503. A pure value: `ImageFetchState` counts the image
/// requests with it, `UpstreamWaitLimit` the `POST /log`s.
struct WaitingBound: Equatable, Sendable {
    /// Most requests waiting at once.
    let limit: Int
    /// Requests waiting now.
    private(set) var count = 0

    /// A bound of `limit` with nobody waiting.
    init(limit: Int) { self.limit = limit }

    /// One more request starts waiting, if there is room: false turns it away (nothing counted).
    mutating func enter() -> Bool {
        guard count < limit else { return false }
        count += 1
        return true
    }

    /// `requests` that entered stop waiting.
    mutating func leave(_ requests: Int = 1) {
        precondition(requests <= count, "more requests left than entered")
        count -= requests
    }
}
