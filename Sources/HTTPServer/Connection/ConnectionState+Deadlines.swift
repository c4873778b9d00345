import Timing

/// When each phase's time is up: the deadlines `timerFired(now:)` enforces and the loop's timer is armed for.
extension ConnectionState {
    /// The earliest time a timer must fire, or nil when nothing is timed (a handler is running).
    var nextDeadline: Instant? {
        var deadline: Instant?
        switch phase {
        case .idle(let since): deadline = since + policy.idleTimeout
        case .readingHead(let since, _): deadline = since + policy.headerTimeout
        case .readingBody(let body): deadline = bodyDeadline(body)
        case .lingering(let until): deadline = until
        case .responding, .writing, .closed: deadline = nil
        }
        if let stalled = writeStalledSince {
            var writeDeadline = stalled + policy.writeTimeout
            if let progress = sendProgress { writeDeadline = min(writeDeadline, sendRateDeadline(progress)) }
            deadline = deadline.map { min($0, writeDeadline) } ?? writeDeadline
        }
        return deadline
    }

    /// When the bytes the peer has taken stop covering the time its answer has waited at the minimum send rate,
    /// never before the grace period ends (the body's rate rule, for the other direction); far off when it is off.
    func sendRateDeadline(_ progress: SendProgress) -> Instant {
        guard policy.minimumSendRate > 0 else { return progress.started + policy.writeTimeout * 1000 }
        let covered = Duration.milliseconds(Int64(progress.sent) * 1000 / Int64(policy.minimumSendRate))
        return progress.started + max(policy.sendRateGracePeriod, covered)
    }

    /// The earliest of the body's three deadlines: the next read (a stalled sender), the whole body (a sender
    /// that trickles forever), and the average rate (a sender that keeps a slot for minutes with a byte every few
    /// seconds; issue 8). The rate deadline is when the bytes received so far stop covering the elapsed time at
    /// the minimum rate, never before the grace period ends: it moves later with every byte that arrives.
    func bodyDeadline(_ body: BodyProgress) -> Instant {
        var deadline = min(body.lastRead + policy.bodyReadTimeout, body.started + policy.bodyTimeout)
        if policy.minimumBodyRate > 0 {
            let covered = Duration.milliseconds(Int64(body.received) * 1000 / Int64(policy.minimumBodyRate))
            deadline = min(deadline, body.started + max(policy.bodyRateGracePeriod, covered))
        }
        return deadline
    }
}
