import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SweepPlanTests {
    static let day: Int64 = 86_400 * 1_000_000_000

    /// A file written on `written` (days) and, if given, read on `read`.
    func entry(_ name: Character, written: Int64, read: Int64? = nil) -> SweepPlan.Entry {
        let id = BrowserID(String(repeating: name, count: 21) + "A")!
        let modified = written * Self.day
        return SweepPlan.Entry(
            id: id, usage: FileUsage(modified: modified, accessed: read.map { $0 * Self.day } ?? modified))
    }

    @Test func filesUnusedLongerThanTheMaxAgeExpire() {
        let entries = [entry("a", written: 0), entry("b", written: 0, read: 300), entry("c", written: 350)]
        let plan = SweepPlan(entries: entries, now: 401 * Self.day, maxAge: 400 * Self.day, keep: 100)
        #expect(plan.expired.map(\.id) == [entries[0].id])
        #expect(plan.evicted.isEmpty)
    }

    /// Issue 8: what a minting script leaves (written once, never read) goes before anything a browser came back to,
    /// however old that is.
    @Test func evictionTakesWrittenOnceNeverReadFirstThenLeastRecentlyUsed() {
        let oldButRead = entry("a", written: 1, read: 2)
        let mintedEarly = entry("b", written: 5)
        let readLater = entry("c", written: 3, read: 9)
        let mintedLate = entry("d", written: 8)
        let plan = SweepPlan(
            entries: [oldButRead, mintedEarly, readLater, mintedLate], now: 10 * Self.day, maxAge: 400 * Self.day,
            keep: 1)
        #expect(plan.evicted.map(\.id) == [mintedEarly.id, mintedLate.id, oldButRead.id])
        #expect(plan.expired.isEmpty)
    }

    @Test func nothingIsEvictedWithinTheCap() {
        let plan = SweepPlan(
            entries: [entry("a", written: 1), entry("b", written: 2)], now: 3 * Self.day, maxAge: 400 * Self.day,
            keep: 2)
        #expect(plan.evicted.isEmpty)
    }

    @Test func aRewrittenFileIsNotTakenForAMintedOne() {
        let rewritten = FileUsage.forWrite(now: 5, replacing: FileUsage(modified: 1, accessed: 1))
        #expect(!rewritten.isPristine)
        let first = FileUsage.forWrite(now: 5, replacing: nil)
        #expect(first.isPristine)
    }

    /// The mtime is the settings' version: it grows with every write even if the clock stands still or steps back.
    @Test func writesGetStrictlyGrowingModificationTimes() {
        let first = FileUsage.forWrite(now: 100, replacing: nil)
        let second = FileUsage.forWrite(now: 100, replacing: first)
        let third = FileUsage.forWrite(now: 50, replacing: second)
        #expect(first.modified < second.modified && second.modified < third.modified)
    }

    @Test func aReadMarksAPristineFileAndThenOnlyOncePerInterval() {
        let written = FileUsage(modified: 1_000, accessed: 1_000)
        #expect(written.needsReadMark(now: 1_000, interval: 60))
        let read = FileUsage(modified: 1_000, accessed: written.readMark(now: 1_000))
        #expect(!read.isPristine)
        #expect(!read.needsReadMark(now: 1_030, interval: 60))
        #expect(read.needsReadMark(now: 1_061, interval: 60))
    }
}
