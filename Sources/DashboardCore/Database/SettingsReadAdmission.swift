/// Whether a browser's settings, read from the database, may be kept in memory: decided per browser by the versions
/// announced (`habits_settings` notifications) while that browser's read was in flight.
///
/// A read right after a change through another dashboard usually overlaps that change's own notification; the read
/// already holds the announced version, so it is kept, and a page served later while the database is down still has
/// it. A read that returned less than a version announced meanwhile is not kept (it would shadow the newer one), and
/// neither is any read that started before every copy was dropped (a reconnection: what was sent meanwhile is lost).
struct SettingsReadAdmission {
    /// One read in flight, from `begin` to `end`.
    struct Ticket: Sendable {
        fileprivate let id: BrowserID
        fileprivate let epoch: UInt64
    }

    private struct Pending {
        var readers = 0
        var announced: UInt64 = 0
    }

    /// Raised by `dropAll`: tickets from before it are refused.
    private var epoch: UInt64 = 0
    /// Only browsers with a read in flight, so the table is as large as the reads waiting on the database.
    private var inFlight: [BrowserID: Pending] = [:]

    var readsInFlight: Int { inFlight.values.reduce(0) { $0 + $1.readers } }

    mutating func begin(_ id: BrowserID) -> Ticket {
        inFlight[id, default: Pending()].readers += 1
        return Ticket(id: id, epoch: epoch)
    }

    /// A notification: `version` of `id` was committed by some dashboard.
    mutating func announced(_ id: BrowserID, version: UInt64) {
        guard var pending = inFlight[id] else { return }
        pending.announced = max(pending.announced, version)
        inFlight[id] = pending
    }

    /// Every copy in memory was dropped (the listener connected or reconnected).
    mutating func dropAll() { epoch += 1 }

    /// The read of `ticket` ended with `version` (0: no row, or the read failed and nothing is kept anyway):
    /// whether its answer may be kept.
    mutating func end(_ ticket: Ticket, version: UInt64) -> Bool {
        guard var pending = inFlight[ticket.id] else { return false }
        pending.readers -= 1
        inFlight[ticket.id] = pending.readers > 0 ? pending : nil
        return ticket.epoch == epoch && version >= pending.announced
    }
}
