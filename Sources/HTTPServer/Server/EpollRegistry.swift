import CLinux
import Glibc

/// An event loop's epoll set: the sockets it watches, each registered once (`EPOLLIN | EPOLLOUT | EPOLLRDHUP |
/// EPOLLET`) under its `LoopSlots` token, and the eventfd other threads write to wake the loop.
///
/// Invariant (`@unchecked Sendable`): only the loop's thread registers, waits and looks connections up (`slots`
/// is its alone, without the runtime exclusivity check, as `Connection`'s loop-thread state); other threads only
/// call `wake()`, which reads nothing but a constant.
final class EpollRegistry: @unchecked Sendable {
    /// The most events one `epoll_wait` returns.
    static let maxEvents: Int32 = 256

    private let epollFD: Int32
    private let wakeFD: Int32
    @exclusivity(unchecked) private var slots = LoopSlots<Connection>()

    /// Creates the epoll set with its wake-up eventfd in it.
    init() {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll_create1/eventfd failed: errno \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = LoopSlots<Connection>.wakeToken
        precondition(epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0, "epoll_ctl failed: errno \(errno)")
    }

    /// Starts watching `connection`'s socket; returns its token, or nil (with errno set) if epoll refused.
    func register(_ connection: Connection, fd: Int32) -> (slot: Int, generation: UInt32)? {
        let (slot, generation) = slots.reserve()
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = LoopSlots<Connection>.token(slot: slot, generation: generation)
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            slots.release(slot)
            return nil
        }
        slots.fill(slot, with: connection)
        return (slot, generation)
    }

    /// Forgets a connection before its socket is closed (closing the fd removes it from the epoll set).
    func deregister(slot: Int) { slots.remove(slot) }

    /// The connection in `slot` if it is still of `generation` (a deadline's).
    func connection(slot: Int, generation: UInt32) -> Connection? { slots.item(slot: slot, generation: generation) }

    /// The connection an event names; nil for one gone since, and for the wake-up, whose count it reads back.
    func connection(for event: epoll_event) -> Connection? {
        let token = event.data.u64
        guard token != LoopSlots<Connection>.wakeToken else {
            var value: UInt64 = 0
            _ = read(wakeFD, &value, 8)
            return nil
        }
        return slots.item(token: token)
    }

    /// Waits up to `timeout` milliseconds (-1: no limit) for events; the count, or -1 with errno set.
    func wait(into events: UnsafeMutablePointer<epoll_event>, timeout: Int32) -> Int32 {
        epoll_wait(epollFD, events, Self.maxEvents, timeout)
    }

    /// Ends the loop's wait (from any thread).
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }
}
