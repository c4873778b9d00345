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
