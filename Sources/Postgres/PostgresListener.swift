import Synchronization
import Timing

/// The one `LISTEN`ing session of a process: it keeps a connection of its own (notifications need a session that
/// stays, which a pooled one does not), `LISTEN`s on every channel a subscriber asked for, and hands each
/// subscriber its channels' notifications as an `AsyncStream`.
///
/// It never gives up: a lost session (or one that does not answer the `SELECT 1` it sends every `pingInterval`, so a
/// hung server is noticed too) is reopened with `Backoff`, the channels `LISTEN`ed again, and every subscriber told
/// `.reconnected`: notifications sent meanwhile are gone, so a subscriber reloads what it keeps from the database.
public final class PostgresListener: Sendable {
    /// What a subscriber sees.
    public enum Event: Sendable, Equatable {
        /// A notification on one of the subscriber's channels.
        case notification(Notification)
        /// The subscriber's channels are being listened on (the first event once the database is reachable).
        case connected
        /// A session is up again after a loss: anything may have changed meanwhile.
        case reconnected
        /// The session was lost (or could not be opened); it is being reopened.
        case lost(String)
    }

    /// How it behaves.
    public struct Configuration: Sendable {
        /// Deadline of a connection attempt and of each statement.
        public var timeout: Duration = .seconds(3)
        /// How often an idle session is checked with `SELECT 1`.
        public var pingInterval: Duration = .seconds(2)
        /// How long one wait for notifications lasts (then the loop checks for new channels and stopping).
        public var waitSlice: Duration = .milliseconds(250)
        /// Spacing of reconnection attempts.
        public var backoff = Backoff()

        /// The defaults.
        public init() {}
    }

    private struct Subscriber: Sendable {
        var channels: Set<String>
        /// Whether it was told `.connected` (once its channels were all being listened on).
        var announced = false
        var continuation: AsyncStream<Event>.Continuation
    }

    private struct Locked: Sendable {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var connected = false
        var reconnects = 0
        var task: Task<Void, Never>?
    }

    private let url: DatabaseURL
    private let clock: any TimeSource
    private let configuration: Configuration
    private let locked = Mutex(Locked())

    /// A listener; nothing happens before `start`.
    public init(url: DatabaseURL, configuration: Configuration = Configuration(), clock: any TimeSource) {
        self.url = url
        self.configuration = configuration
        self.clock = clock
    }

    /// Whether a session is up and listening now.
    public var isConnected: Bool { locked.withLock { $0.connected } }

    /// Sessions reopened after a loss.
    public var reconnects: Int { locked.withLock { $0.reconnects } }

    /// A stream of `channels`' notifications and of every connection event. Channels are identifiers of lower-case
    /// letters, digits and underscores (they are spliced into `LISTEN`, which takes no parameter).
    public func subscribe(channels: Set<String>) -> AsyncStream<Event> {
        precondition(channels.allSatisfy(Self.isChannelName), "channel names are plain identifiers")
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
        let id = locked.withLock { locked in
            locked.nextID += 1
            locked.subscribers[locked.nextID] = Subscriber(channels: channels, continuation: continuation)
            return locked.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.locked.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Starts the session loop (idempotent).
    public func start() {
        locked.withLock { locked in
            guard locked.task == nil else { return }
            locked.task = Task { [self] in await run() }
        }
    }

    /// Stops the loop and ends every subscriber's stream.
    public func stop() {
        let (task, subscribers) = locked.withLock { locked in
            defer {
                locked.task = nil
                locked.subscribers = [:]
            }
            return (locked.task, Array(locked.subscribers.values))
        }
        task?.cancel()
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    // MARK: - The loop

    private func run() async {
        var everConnected = false
        await RetryLoop.run(backoff: configuration.backoff, clock: clock) { connected in
            var connection: PostgresConnection?
            do {
                let opened = try await PostgresConnection.connect(
                    to: url, deadline: clock.now + configuration.timeout, clock: clock)
                connection = opened
                var listening = Set<String>()
                try await listenToNew(on: opened, listening: &listening)
                connected()
                locked.withLock { locked in
                    locked.connected = true
                    if everConnected { locked.reconnects += 1 }
                }
                announce(listening: listening, reconnected: everConnected)
                everConnected = true
                try await serve(opened, listening: &listening)
                return .again
            } catch {
                connection?.close()
                let wasConnected = locked.withLock { locked in
                    defer { locked.connected = false }
                    return locked.connected
                }
                if wasConnected || !everConnected { broadcast(.lost("\(error)")) }
                throw error
            }
        }
        locked.withLock { $0.connected = false }
    }

    private func serve(_ connection: PostgresConnection, listening: inout Set<String>) async throws {
        var lastPing = clock.now
        while !Task.isCancelled {
            for note in try await connection.notifications(until: clock.now + configuration.waitSlice) {
                deliver(note)
            }
            try await listenToNew(on: connection, listening: &listening)
            announce(listening: listening, reconnected: false)
            if clock.now - lastPing >= configuration.pingInterval {
                _ = try await connection.run(
                    Statement("SELECT 1", idempotent: true), deadline: clock.now + configuration.timeout)
                lastPing = clock.now
            }
        }
        connection.close()
    }

    private func listenToNew(on connection: PostgresConnection, listening: inout Set<String>) async throws {
        let wanted = locked.withLock { $0.subscribers.values.reduce(into: Set<String>()) { $0.formUnion($1.channels) } }
        for channel in wanted.subtracting(listening).sorted() {
            _ = try await connection.run(
                Statement("LISTEN \(channel)", idempotent: true), deadline: clock.now + configuration.timeout)
            listening.insert(channel)
        }
    }

    private func deliver(_ note: Notification) {
        let targets = locked.withLock { locked in
            locked.subscribers.values.filter { $0.channels.contains(note.channel) }.map(\.continuation)
        }
        for target in targets { target.yield(.notification(note)) }
    }

    /// Tells each subscriber whose channels are all listened on and that was not told yet `.connected`, and after a
    /// reconnection every one told before `.reconnected`.
    private func announce(listening: Set<String>, reconnected: Bool) {
        let events = locked.withLock { locked -> [(AsyncStream<Event>.Continuation, Event)] in
            var events: [(AsyncStream<Event>.Continuation, Event)] = []
            for (id, subscriber) in locked.subscribers {
                if subscriber.announced {
                    if reconnected { events.append((subscriber.continuation, .reconnected)) }
                } else if subscriber.channels.isSubset(of: listening) {
                    locked.subscribers[id]?.announced = true
                    events.append((subscriber.continuation, .connected))
                }
            }
            return events
        }
        for (target, event) in events { target.yield(event) }
    }

    private func broadcast(_ event: Event) {
        for target in locked.withLock({ $0.subscribers.values.map(\.continuation) }) { target.yield(event) }
    }

    private static func isChannelName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.count <= 63
            && name.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            }
    }
}
