import Foundation
import HTTPServer

extension DashboardApp {
    /// The epoch under which the server gives a page's answer again to the very same request (issue 21): the
    /// snapshot's generation, which moves with new data, the stale notice and every setting changed here, and the
    /// quarter-second of the snapshot store's clock (the one pages are dated by). That bounds what moves without the
    /// generation (a setting changed through another dashboard, the history's next slot, the stale notice's time) and
    /// lies within one second, as the last-visit cookie's renewal and "since your last visit" do. Tests on a manual
    /// clock move it with the clock.
    public var answerEpoch: AnswerEpoch {
        AnswerEpoch { [snapshots] in Self.epoch(generation: snapshots.generation, date: snapshots.date) }
    }

    /// The generation in the high 30 bits, the quarter-second (34 bits last until 2106) in the low ones.
    static func epoch(generation: UInt64, date: Date) -> UInt64 {
        let quarters = min(max(date.timeIntervalSince1970 * 4, 0), Double(quarterMask))
        return generation << 34 | UInt64(quarters) & quarterMask
    }

    private static var quarterMask: UInt64 { 1 << 34 - 1 }
}
