/// Pipelining within bounds (issue 23 point 2: "readers must read").
///
/// A peer may send many requests at once and read none of the answers: the kernel takes each answer as long as the
/// peer's receive buffer has room, and on loopback that buffer grew to about 1 MiB per connection, so 1 024 such
/// connections had the loops copy about 1 GB of `/people` into the kernel every time they reconnected (perf: 73 % of
/// the loops' time in `_copy_from_iter` under `sendmsg`), and a well-behaved client's page waited seconds behind
/// them, each reconnect costing as much again. What reaches the kernel cannot tell us whether the peer reads it, so the
/// bound is on what we write while the next request is already there: at most `maxPipelinedBytes` of answer bodies
/// one after another (128 KiB: four `/people` pages; hundreds of small answers). The answer that reaches it says
/// `Connection: close`, and the requests after it are dropped in a lingering close; RFC 9112 §9.3.2 has a client that
/// pipelines retry the requests a closed connection did not answer. A client that waits for each answer before its
/// next request (every browser) never comes near the bound: each wait starts the count again, and the first answer
/// after a wait is never the end, however large.
extension ConnectionState {
    /// Whether the answer now ready, with `bodyBytes` of body, is the last the pipeline gets; counts it.
    mutating func pipelineEnds(afterAnswerOf bodyBytes: Int) -> Bool {
        pipelined.answers += 1
        pipelined.bytes += bodyBytes
        // The first answer after a wait is never the pipeline's end, however large: a browser's page is not cut.
        guard pipelined.answers > 1 else { return false }
        return pipelined.bytes >= policy.maxPipelinedBytes
    }

    /// The connection read everything its peer had sent and found no whole request: it waits for the peer now, so
    /// the next answer starts a new count.
    mutating func waitingForPeer() {
        pipelined = (0, 0)
    }
}
