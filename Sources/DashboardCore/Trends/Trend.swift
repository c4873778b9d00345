import Foundation

/// One habit's or person's total count over a range (the last hour by default), as a page shows it: a sparkline or
/// chart, its accessible label, and over the range its start, low, high and change (issue 10 point 4, issue 22 point
/// 2, issue 47 point 2).
///
/// A pure value cut from `TrendHistory`: slots oldest first, one per `spacing` seconds, the last being the latest
/// recorded slot (starting at `lastSecond`, seconds since 1970), each with the first and the last total recorded in
/// it; nil where nothing was recorded. Every figure comes from `points`, the totals at the slots' edges, so the line,
/// its label and the text under it describe the same span: the whole range once it has been recorded from its start,
/// else "since 02:10" (the start of the first recorded slot, in `timeZone`).
public struct Trend: Hashable, Sendable {
    /// The last total of each slot, oldest first (at most `capacity`).
    public var samples: [Int?]
    /// The first total of each slot, as `samples` (nil where unknown: the slot's last total stands for it).
    public var firsts: [Int?]
    /// Slots in the range: the width of the time axis.
    public var capacity: Int
    /// Seconds between samples.
    public var spacing: Int
    /// The range the samples cover.
    public var range: HistoryRange
    /// When the last slot starts, in seconds since 1970 (0 when unknown).
    public var lastSecond: Int
    /// The zone "since 02:10" is worded in (the dashboard's own).
    public var timeZone: TimeZone

    /// Creates a trend; slots beyond `capacity` (the oldest) are left out. Without `firsts`, each slot's first total
    /// is its last (one recording a slot).
    public init(
        samples: [Int?], firsts: [Int?]? = nil, capacity: Int, spacing: Int, range: HistoryRange = .hour,
        lastSecond: Int = 0, timeZone: TimeZone = .current
    ) {
        self.capacity = max(2, capacity)
        self.samples = Array(samples.suffix(self.capacity))
        let firsts = firsts ?? samples
        self.firsts = Array(firsts.suffix(self.samples.count))
        self.firsts.insert(contentsOf: repeatElement(nil, count: self.samples.count - self.firsts.count), at: 0)
        self.spacing = max(1, spacing)
        self.range = range
        self.lastSecond = lastSecond
        self.timeZone = timeZone
    }

    /// The total at each slot's start and at the last one's end (`samples.count + 1` points): where the slot before is
    /// known, its last total; else the slot's own first. Nil where neither is known.
    public var points: [Int?] {
        guard !samples.isEmpty else { return [] }
        var points: [Int?] = [firsts[0] ?? samples[0]]
        for index in 1..<samples.count {
            points.append(samples[index - 1] ?? firsts[index] ?? samples[index])
        }
        points.append(samples[samples.count - 1])
        return points
    }

    /// The recorded part of `points`: from the first known one.
    public var recordedPoints: ArraySlice<Int?> {
        let points = points
        return points[(points.firstIndex { $0 != nil } ?? points.endIndex)...]
    }

    /// Whether there is a line to draw: two slots known, or one in which the total changed (a single total is a dot).
    public var hasLine: Bool {
        samples.lazy.compactMap { $0 }.count >= 2
            || zip(firsts, samples).contains { first, last in first != nil && last != nil && first != last }
    }

    /// Whether the whole range has been recorded, from the start of its oldest slot.
    public var coversRange: Bool { samples.count == capacity && (points.first ?? nil) != nil }

    /// When the recorded span starts: the start of its first known slot, in seconds since 1970; nil when none is.
    public var startSecond: Int? {
        let recorded = recordedPoints
        guard !recorded.isEmpty else { return nil }
        return lastSecond - (samples.count - 1 - recorded.startIndex) * spacing
    }

    /// The lowest and highest known totals; nil when none is known.
    public var extremes: (low: Int, high: Int)? {
        let known = recordedPoints.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return nil }
        return (low, high)
    }

    /// The change over the recorded span: the latest known total minus the first; nil without a line.
    public var change: Int? {
        let recorded = recordedPoints
        guard hasLine, let first = recorded.first ?? nil, let last = recorded.last(where: { $0 != nil }) ?? nil
        else { return nil }
        return last - first
    }

    /// The span the figures cover: "in the last hour", "this week", or "since 02:10" while less has been recorded.
    public var spanWording: String {
        guard !coversRange, let start = startSecond else { return range.changeWording }
        return "since " + TimeText.clock(start, sameDayAs: lastSecond, in: timeZone)
    }

    /// "+41 this week", "+23 since 02:10" (the minus sign for a total that fell, after a reset upstream); nil with
    /// nothing to compare.
    public var changeText: String? {
        guard let change else { return nil }
        return (change < 0 ? "\u{2212}" : "+") + "\(abs(change)) " + spanWording
    }

    /// The line's accessible name, over the same span as `changeText`: "Count over the last hour: from 3 to 17",
    /// "Count since 02:10: from 3 to 17".
    public var label: String {
        let recorded = recordedPoints
        guard let first = recorded.first ?? nil, let last = recorded.last(where: { $0 != nil }) ?? nil else {
            return "No count recorded yet"
        }
        guard hasLine else { return "Count so far: \(last), no earlier point yet" }
        let span = coversRange ? "over the last \(range.title.dropFirst(2))" : spanWording
        return "Count \(span): from \(first) to \(last)"
    }

    /// The drawing: the recorded span at its place in the range (a young series is not stretched across the card).
    public var sparkline: Sparkline { Sparkline(samples: Array(recordedPoints), capacity: capacity + 1) }
}
