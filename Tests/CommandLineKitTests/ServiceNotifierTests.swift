import CommandLineKit
import TestSupport
import Testing

/// The datagrams systemd reads, on a socket of the test's own.
@Suite struct ServiceNotifierTests {
    @Test func sendsReadyThenTheWatchdogThenStopping() async throws {
        let listener = try NotifyListener()
        let notifier = try #require(
            ServiceNotifier(ServiceNotification(socketPath: listener.path, watchdogInterval: .milliseconds(50))))
        notifier.ready()
        #expect(await listener.next() == "READY=1")
        #expect(await listener.next() == "WATCHDOG=1")
        #expect(await listener.next() == "WATCHDOG=1")
        notifier.stopping()
        // A watchdog datagram already on its way may come first; then STOPPING=1, and no more petting.
        var message = await listener.next()
        while message == "WATCHDOG=1" { message = await listener.next() }
        #expect(message == "STOPPING=1")
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

    @Test func aMissingSocketIsNotFatal() throws {
        let notifier = try #require(ServiceNotifier(ServiceNotification(socketPath: "/nonexistent/notify")))
        #expect(!notifier.send("READY=1"))
    }
}
