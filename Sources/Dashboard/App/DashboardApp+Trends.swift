import HTTPServer

extension DashboardApp {
    /// The content version of a live page or fragment, which draws trends: the data's version and the history's
    /// latest slot. The sparklines and "+N in the last 5 min" then move on every slot (10 s) while the page is
    /// watched, even when the counts stand still, at the cost of at most one rendering per page per slot; requests
    /// in between are still served from the render cache.
    func trendContent(_ view: SnapshotView) -> UInt64 {
        guard let slot = activity.latestSlot else { return view.snapshot.version }
        var digest = ContentDigest()
        digest.feed(Int(bitPattern: UInt(view.snapshot.version)))
        digest.feed(slot)
        return digest.value
    }
}

extension DashboardApp {
    /// The chart's range from `?range=`: an hour when absent; anything else but day, week or month is a 400 that
    /// names the choices (as `?sort=` on People), so a mistyped link does not silently show another range.
    static func range(_ request: Request) throws -> HistoryRange {
        guard let range = HistoryRange.parse(request.query["range"]) else {
            throw HTTPError(.badRequest, "Show a range of hour, day, week or month.")
        }
        return range
    }

    /// What a range adds to a fragment's render-cache route.
    static func rangeSuffix(_ range: HistoryRange) -> String { range.query.isEmpty ? "" : "?" + range.query }
}
