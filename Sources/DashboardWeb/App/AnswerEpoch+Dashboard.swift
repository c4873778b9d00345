import DashboardCore
import Foundation
import HTTPServer

extension AnswerEpoch {
    /// The epoch under which the server gives a page's answer again to the very same request (issue 21). It moves
    /// with the snapshot's generation (new data, the stale notice, every setting changed here), with the settings
    /// copies in memory (`DashboardState.changes`: a change through another dashboard, heard of or found in its
    /// file, drops a copy without moving the generation, and one loop's answer must not outlive what another loop
    /// already shows), and with the quarter-second of the snapshot store's clock (the one pages are dated by). That
    /// bounds what moves without either (the history's next slot, the stale notice's time) and lies within one
    /// second, as the last-visit cookie's renewal and "since your last visit" do. Tests on a manual clock move it with
    /// the clock.
    init(state: DashboardState) {
        self.init { [state] in Self.dashboard(changes: state.changes, date: state.date) }
    }

    /// The changes (a sum of counters that only grow, so it moves when either does) in the high 30 bits, the
    /// quarter-second (34 bits last until 2106) in the low ones.
    static func dashboard(changes: UInt64, date: Date) -> UInt64 {
        let quarters = min(max(date.timeIntervalSince1970 * 4, 0), Double(quarterMask))
        return changes << 34 | UInt64(quarters) & quarterMask
    }

    private static var quarterMask: UInt64 { 1 << 34 - 1 }
}
