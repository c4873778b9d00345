import TemplateKit

extension Trend {
    /// The value of `Templates/partials/sparkline.html`: the path, the end dot, the label and the gain. Every key is
    /// present, so nothing resolves to an enclosing field by accident.
    var templateValue: TemplateValue {
        let line = sparkline
        return [
            "label": .text(label),
            "width": .int(line.width),
            "height": .int(line.height),
            "path": .text(line.path),
            "end": line.end.map { ["x": .text(Sparkline.decimal($0.x)), "y": .text(Sparkline.decimal($0.y))] }
                ?? .null,
            "gainText": TemplateValue(gainText),
        ]
    }
}

extension Optional where Wrapped == Trend {
    /// The trend's value, or null (no sparkline) when there is none or it has a single point: one sample draws a lone
    /// dot with no line, which reads as a stray mark on the card rather than a trend.
    var templateValue: TemplateValue {
        guard let trend = self, trend.samples.lazy.compactMap({ $0 }).count >= 2 else { return .null }
        return trend.templateValue
    }
}

extension Trend {
    /// The chart across the content width on a habit's or person's page (issue 22 point 2): the x axis spans the whole
    /// range (what is not known yet is blank), with its start and end times, low, high and the change over the range.
    func chartValue(now: Int) -> TemplateValue {
        let line = Sparkline(
            samples: samples, capacity: capacity, width: 600, height: 120, inset: 6, maxPoints: 241,
            minimumSlots: capacity)
        // The last sample is the last total seen in its slot, so the axis ends when that slot ends (or now, within it).
        let end = min(lastSecond + spacing, max(now, lastSecond))
        let axis = (start: end - (capacity - 1) * spacing, end: end)
        let extremes = extremes
        return [
            "label": .text(label),
            "width": .int(line.width),
            "height": .int(line.height),
            "path": .text(line.path),
            "start": TimeText(second: axis.start, now: now).templateValue,
            "end": TimeText(second: axis.end, now: now).templateValue,
            "low": extremes.map { .int($0.low) } ?? .text("–"),
            "high": extremes.map { .int($0.high) } ?? .text("–"),
            "changeText": TemplateValue(changeText),
        ]
    }
}

extension Optional where Wrapped == Trend {
    /// The chart's value, or null (the page says nothing is recorded yet) with fewer than two known samples.
    func chartValue(now: Int) -> TemplateValue {
        guard let trend = self, trend.samples.lazy.compactMap({ $0 }).count >= 2 else { return .null }
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
