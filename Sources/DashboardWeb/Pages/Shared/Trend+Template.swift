import DashboardCore
import TemplateKit

extension Trend {
    /// The value of `Templates/partials/sparkline.html`: the path, the end dot, the label and the change over the
    /// same span. Every key is present, so nothing resolves to an enclosing field by accident.
    var templateValue: TemplateValue {
        let line = sparkline
        return [
            "label": .text(label),
            "width": .int(line.width),
            "height": .int(line.height),
            "path": .text(line.path),
            "end": line.end.map { ["x": .text(Sparkline.decimal($0.x)), "y": .text(Sparkline.decimal($0.y))] }
                ?? .null,
            "changeText": TemplateValue(changeText),
        ]
    }
}

extension Optional where Wrapped == Trend {
    /// The trend's value, or null (no sparkline) when there is none or it has a single total: that draws a lone dot
    /// with no line, which reads as a stray mark on the card rather than a trend.
    var templateValue: TemplateValue {
        guard let trend = self, trend.hasLine else { return .null }
        return trend.templateValue
    }
}

extension Trend {
    /// The chart across the content width on a habit's or person's page (issue 22 point 2): the x axis spans the range,
    /// or only the recorded span while less has been recorded ("since 02:10", issue 47), with its start and end, low,
    /// high and the change over that span.
    func chartValue(now: Int) -> TemplateValue {
        let points = Array(recordedPoints)
        let line = Sparkline(
            samples: points, capacity: points.count, width: 600, height: 120, inset: 6, maxPoints: 241,
            minimumSlots: points.count)
        // The last point is the last total seen in its slot, so the axis ends when that slot ends (or now, within it).
        let end = min(lastSecond + spacing, max(now, lastSecond))
        // A whole range starts "1 h ago" (live.js keeps that current); a shorter one "since 02:10", worded as the
        // change and the label are, and left as it is by live.js so the three keep saying the same.
        let first = startSecond ?? end
        let since: TemplateValue = [
            "iso": .text(TimeText.iso(first)),
            "text": .text(TimeText.clock(first, sameDayAs: lastSecond, in: timeZone)),
        ]
        let start: TemplateValue =
            coversRange
            ? ["ago": TimeText(second: first, now: now).templateValue, "since": .null]
            : ["ago": .null, "since": since]
        let extremes = extremes
        return [
            "label": .text(label),
            "width": .int(line.width),
            "height": .int(line.height),
            "path": .text(line.path),
            "start": start,
            "end": TimeText(second: end, now: now).templateValue,
            "low": extremes.map { .int($0.low) } ?? .text("–"),
            "high": extremes.map { .int($0.high) } ?? .text("–"),
            "changeText": TemplateValue(changeText),
        ]
    }
}

extension Optional where Wrapped == Trend {
    /// The chart's value, or null (the page says nothing is recorded yet) without a line (a single total).
    func chartValue(now: Int) -> TemplateValue {
        guard let trend = self, trend.hasLine else { return .null }
        return trend.chartValue(now: now)
    }
}

extension HistoryRange {
    /// The links "1 hour · 1 day · 1 week · 1 month" on the page at `path`, the current one marked.
    static func links(path: String, current: HistoryRange) -> TemplateValue {
        .list(
            allCases.map { range in
                [
                    "href": .text(range.url(path)),
                    "title": .text(range.title),
                    "isCurrent": .bool(range == current),
                ]
            })
    }
}
