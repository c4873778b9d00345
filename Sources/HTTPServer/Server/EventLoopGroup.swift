import Glibc
import Synchronization

/// The event loops every server in the process shares: one per core (or `HTTP_EVENT_LOOPS`), started on
/// first use, never stopped (like nginx's workers, they live as long as the process). New connections are
/// dealt out round-robin.
final class EventLoopGroup: Sendable {
    /// The process-wide group.
    static let shared = EventLoopGroup(count: configuredCount())

    /// The loops.
    let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// Starts `count` loops.
    init(count: Int) {
        loops = (0..<count).map { EventLoop(name: "http-loop-\($0)", index: $0) }
    }

    /// The loop for the next connection.
    func next() -> EventLoop {
        loops[nextIndex.add(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// `HTTP_EVENT_LOOPS` when it is a number from 1 to 64 (for benchmarks), else the number of online cores.
    static func configuredCount() -> Int {
        if let text = getenv("HTTP_EVENT_LOOPS"), let count = Int(String(cString: text)), (1...64).contains(count) {
            return count
        }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
