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
