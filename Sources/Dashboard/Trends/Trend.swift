/// One habit's or person's total count over a range (the last hour by default), as a page shows it: a sparkline or
/// chart, its accessible label, "+N in the last 5 min", and over the range its low, high and change (issue 10 point
/// 4, issue 22 point 2).
///
/// A pure value cut from `TrendHistory`: samples oldest first, one per `spacing` seconds, the last being the latest
/// recorded slot (starting at `lastSecond`, seconds since 1970); nil where nothing was recorded.
public struct Trend: Hashable, Sendable {
    /// The samples, oldest first (at most `capacity`).
    public var samples: [Int?]
    /// Slots the history keeps: the width of the sparkline's time axis.
    public var capacity: Int
    /// Seconds between samples.
    public var spacing: Int
    /// The range the samples cover.
    public var range: HistoryRange
    /// When the last slot starts, in seconds since 1970 (0 when unknown).
    public var lastSecond: Int

    /// Creates a trend; samples beyond `capacity` (the oldest) are left out.
    public init(samples: [Int?], capacity: Int, spacing: Int, range: HistoryRange = .hour, lastSecond: Int = 0) {
        self.capacity = max(2, capacity)
        self.samples = Array(samples.suffix(self.capacity))
        self.spacing = max(1, spacing)
        self.range = range
        self.lastSecond = lastSecond
    }

    /// The lowest and highest known totals; nil when none is known.
    public var extremes: (low: Int, high: Int)? {
        let known = samples.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return nil }
        return (low, high)
    }

    /// The change over the range: the latest known total minus the oldest known one; nil with fewer than two.
    public var change: Int? {
        guard let firstIndex = samples.firstIndex(where: { $0 != nil }),
            let lastIndex = samples.lastIndex(where: { $0 != nil }), firstIndex != lastIndex,
            let first = samples[firstIndex], let last = samples[lastIndex]
        else { return nil }
        return last - first
    }

    /// "+41 this week" (the minus sign for a total that fell, after a reset upstream); nil with nothing to compare.
    public var changeText: String? {
        guard let change else { return nil }
        return (change < 0 ? "\u{2212}" : "+") + "\(abs(change)) " + range.changeWording
    }

    /// The growth over the last `seconds` (5 min by default): the latest total minus the oldest known one in that
    /// window, and the whole minutes it spans; nil when the latest is unknown or there is nothing to compare with.
    public func gain(over seconds: Int = 300) -> (amount: Int, minutes: Int)? {
        guard let latest = samples.last ?? nil else { return nil }
        let last = samples.count - 1
        let back = min(last, seconds / spacing)
        guard back >= 1 else { return nil }
        for index in (last - back)..<last {
            if let base = samples[index] {
                return (latest - base, Self.minutes((last - index) * spacing))
            }
        }
        return nil
    }

    /// "+3 in the last 5 min" (fewer minutes while the history is younger); nil when there is no gain to tell.
    public var gainText: String? {
        guard let gain = gain() else { return nil }
        let sign = gain.amount < 0 ? "\u{2212}" : "+"
        return "\(sign)\(abs(gain.amount)) in the last \(gain.minutes) min"
    }

    /// The sparkline's accessible name: "Count over the last hour: from 3 to 17".
    public var label: String {
        guard let firstIndex = samples.firstIndex(where: { $0 != nil }), let first = samples[firstIndex],
            let lastIndex = samples.lastIndex(where: { $0 != nil }), let last = samples[lastIndex]
        else { return "No count recorded yet" }
        let span = (samples.count - 1 - firstIndex) * spacing
        guard firstIndex != lastIndex else { return "Count so far: \(last), no earlier point yet" }
        let window =
            range != .hour
            ? "the last \(range.title.dropFirst(2))"
            : span >= 3600 ? "the last hour" : "the last \(Self.minutes(span)) min"
        return "Count over \(window): from \(first) to \(last)"
    }

    /// The drawing.
    public var sparkline: Sparkline { Sparkline(samples: samples, capacity: capacity) }

    /// Whole minutes in `seconds`, rounded up, at least 1.
    private static func minutes(_ seconds: Int) -> Int { max(1, (seconds + 59) / 60) }
}
