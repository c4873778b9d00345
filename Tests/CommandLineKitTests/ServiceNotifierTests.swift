import CommandLineKit
import TestSupport
import Testing

/// The datagrams systemd reads, on a socket of the test's own.
@Suite struct ServiceNotifierTests {
    /// The watchdog pets once per interval of the notifier's clock, moved by hand, and `stopping()` ends it.
    @Test func sendsReadyThenTheWatchdogEachIntervalThenStopping() async throws {
        let listener = try NotifyListener()
        let clock = ManualClock()
        let notifier = try #require(
            ServiceNotifier(
                ServiceNotification(socketPath: listener.path, watchdogInterval: .seconds(10)), clock: clock))
        notifier.ready()
        #expect(await listener.next() == "READY=1")
        for pet in 1...2 {
            await eventually("the watchdog asleep before pet \(pet)") { clock.sleeperCount == 1 }
            clock.advance(by: .seconds(10))
            #expect(await listener.next() == "WATCHDOG=1")
        }
        await eventually("the watchdog asleep") { clock.sleeperCount == 1 }
        // STOPPING=1 waits for room on the socket, as sd_notify does, so it is sent while the test keeps reading.
        async let stopped: Void = onOwnThread { notifier.stopping() }
        #expect(await listener.next() == "STOPPING=1")
        await stopped
        // Stopping cancelled the watchdog's timer (which wakes its sleep), so no move of the clock pets again.
        await eventually("the watchdog's timer gone") { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(100))
        #expect(await listener.next(timeout: .milliseconds(300)) == nil)
    }

    @Test func withoutAWatchdogOnlyTheStatesAreSent() async throws {
        let listener = try NotifyListener()
        let notifier = try #require(ServiceNotifier(ServiceNotification(socketPath: listener.path)))
        notifier.ready()
        notifier.stopping()
        #expect(await listener.next() == "READY=1")
        #expect(await listener.next() == "STOPPING=1")
    }

    /// Regression: a watchdog blocked on a full socket (nobody reading) held `stopping()` forever.
    @Test func aFullSocketDropsWatchdogPetsInsteadOfBlocking() async throws {
        let listener = try NotifyListener()
        let notifier = try #require(
            ServiceNotifier(ServiceNotification(socketPath: listener.path, watchdogInterval: .milliseconds(1))))
        notifier.ready()
        // Well past the kernel's queue of 10 datagrams (net.unix.max_dgram_qlen) while nothing reads.
        for _ in 0..<200 where notifier.send(ServiceNotification.watchdog, wait: false) {}
        #expect(!notifier.send(ServiceNotification.watchdog, wait: false))
        // The timer is not stuck in sendto, so stopping() gets to send STOPPING=1 once the test makes room.
        async let stopped: Void = onOwnThread { notifier.stopping() }
        var messages: [String] = []
        while let message = await listener.next() {
            messages.append(message)
            if message == ServiceNotification.stopping { break }
        }
        await stopped
        #expect(messages.first == "READY=1" && messages.last == "STOPPING=1")
        #expect(messages.dropFirst().dropLast().allSatisfy { $0 == "WATCHDOG=1" })
    }

    @Test func aMissingSocketIsNotFatal() throws {
        let notifier = try #require(ServiceNotifier(ServiceNotification(socketPath: "/nonexistent/notify")))
        #expect(!notifier.send("READY=1"))
    }
}
