/// The geometry of a sparkline: an SVG path through a series' samples, in a `width` × `height` box whose right edge
/// is the latest slot. Pure, so it is tested without a page.
///
/// - The x axis spans the series' own samples (the label says since when: "since 02:10"), but at least
///   `minimumSlots` (5 min), so a young series does not stretch two samples across the card, and at most `capacity`.
/// - The y axis spans the known samples' range (a flat series is drawn across the middle), inset from the edges so
///   the stroke is not clipped.
/// - Unknown samples break the line (a new subpath starts after them); slots before the series began are left blank.
/// - At most about `maxPoints` points are drawn: every `stride`-th sample counted back from the latest, plus the ends
///   of each run, and the middle of flat stretches is dropped, so a card on Home costs a few hundred bytes.
/// - Coordinates are written in tenths, without Foundation formatting, so the bytes are the same everywhere.
public struct Sparkline: Equatable, Sendable {
    /// One point, in tenths of a unit.
    public struct Point: Equatable, Sendable {
        /// x × 10.
        public var x: Int
        /// y × 10.
        public var y: Int
    }

    /// The width of the box (`viewBox` units).
    public let width: Int
    /// The height of the box.
    public let height: Int
    /// Runs of points joined by lines, split where samples are unknown.
    public private(set) var segments: [[Point]] = []

    /// Lays the samples (oldest first) out in the box.
    public init(
        samples: [Int?], capacity: Int, width: Int = 120, height: Int = 24, inset: Int = 3, maxPoints: Int = 61,
        minimumSlots: Int = 31
    ) {
        self.width = width
        self.height = height
        let capacity = max(2, capacity)
        // Clamped as the history stores them, so the arithmetic below cannot overflow whatever a caller passes.
        let samples = samples.suffix(capacity).map { $0.map { min(max($0, 0), Int(Int32.max)) } }
        let known = samples.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return }
        let axis = min(capacity, max(samples.count, minimumSlots, 2))
        let stride = max(1, (axis - 1 + max(1, maxPoints - 1) - 1) / max(1, maxPoints - 1))
        let offset = axis - samples.count  // slots before the series began
        let last = samples.count - 1

        var segments: [[Point]] = []
        var current: [Point] = []
        for (index, sample) in samples.enumerated() {
            guard let value = sample else {
                if !current.isEmpty { segments.append(current) }
                current = []
                continue
            }
            let runStart = index == 0 || samples[index - 1] == nil
            let runEnd = index == last || samples[index + 1] == nil
            guard runStart || runEnd || (last - index) % stride == 0 else { continue }
            current.append(
                Point(
                    x: Self.scaled(offset + index, of: axis - 1, to: width * 10),
                    y: Self.y(value, low: low, high: high, height: height, inset: inset)))
        }
        if !current.isEmpty { segments.append(current) }
        self.segments = segments.map(Self.withoutFlatMiddles)
    }

    /// The latest known point (drawn as a dot); nil when nothing is known.
    public var end: Point? { segments.last?.last }

    /// The path's `d` attribute: "M0 21L2 20.5…"; a lone point is a zero-length line, which round caps draw as a dot.
    public var path: String {
        var text = ""
        for segment in segments {
            for (index, point) in segment.enumerated() {
                text += (index == 0 ? "M" : "L") + Self.decimal(point.x) + " " + Self.decimal(point.y)
            }
            if segment.count == 1 { text += "h0" }
        }
        return text
    }

    /// `value` on the y axis, in tenths: high at the top inset, low at the bottom, a flat series in the middle.
    static func y(_ value: Int, low: Int, high: Int, height: Int, inset: Int) -> Int {
        guard high > low else { return height * 5 }
        let span = max(0, height - 2 * inset) * 10
        return inset * 10 + scaled(high - min(max(value, low), high), of: high - low, to: span)
    }

    /// `part / whole` of `length`, rounded to the nearest integer, in 64-bit so large counts cannot overflow.
    static func scaled(_ part: Int, of whole: Int, to length: Int) -> Int {
        guard whole > 0 else { return length }
        let product = Int64(part) * Int64(length)
        return Int((product * 2 + Int64(whole)) / (Int64(whole) * 2))
    }

    /// A tenth as text: 125 → "12.5", 120 → "12", -5 → "-0.5".
    public static func decimal(_ tenths: Int) -> String {
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        let whole = "\(sign)\(magnitude / 10)"
        return magnitude % 10 == 0 ? whole : whole + ".\(magnitude % 10)"
    }

    /// Drops points whose neighbours on both sides are at the same height: the line looks the same without them.
    private static func withoutFlatMiddles(_ points: [Point]) -> [Point] {
        guard points.count > 2 else { return points }
        var kept = [points[0]]
        for index in 1..<(points.count - 1)
        where
            !(points[index - 1].y == points[index].y
            && points[index].y == points[index + 1].y)
        {
            kept.append(points[index])
        }
        kept.append(points[points.count - 1])
        return kept
    }
}
