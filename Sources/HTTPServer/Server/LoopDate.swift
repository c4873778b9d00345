import Glibc
import Timing

/// An event loop's copy of the clock texts of the current second (`DateCache.Texts`: the `Date` header and the log
/// timestamp), refreshed without a lock when the loop's round time passes the next wall-clock second.
///
/// The wall clock is read once per refresh, once a second, not once per round: the refresh is due at the
/// monotonic instant the next second was expected to begin, and a refresh that comes a little early (the two
/// clocks drift, or the wall clock was set) finds the same second and simply looks again at the new estimate.
struct LoopDate {
    /// The texts of the second the last refresh found.
    private(set) var texts: DateCache.Texts
    /// The round time at or after which the wall clock is read again.
    private(set) var nextRefresh: MonotonicInstant
    private let readWallClock: () -> timespec
    private let format: (Int) -> DateCache.Texts

    /// The texts at `now`; `readWallClock` and `format` are the system's and `DateCache.shared`'s but for tests.
    init(
        now: MonotonicInstant, readWallClock: @escaping () -> timespec = LoopDate.systemWallClock,
        format: @escaping (Int) -> DateCache.Texts = { DateCache.shared.texts(second: $0) }
    ) {
        self.readWallClock = readWallClock
        self.format = format
        texts = DateCache.Texts(httpDate: [], timestamp: "")
        nextRefresh = now
        refresh(now: now)
    }

    /// Refreshes the texts if the round time `now` reached the next second.
    @inline(__always) mutating func update(now: MonotonicInstant) {
        if now >= nextRefresh { refresh(now: now) }
    }

    private mutating func refresh(now: MonotonicInstant) {
        let wall = readWallClock()
        texts = format(Int(wall.tv_sec))
        nextRefresh = MonotonicInstant(nanoseconds: now.nanoseconds + 1_000_000_000 - Int64(wall.tv_nsec))
    }

    /// `CLOCK_REALTIME`, the wall clock `time(nil)` reads.
    static func systemWallClock() -> timespec {
        var reading = timespec()
        clock_gettime(CLOCK_REALTIME, &reading)
        return reading
    }
}
