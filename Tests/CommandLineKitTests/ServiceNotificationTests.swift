import CommandLineKit
import Testing

@Suite struct ServiceNotificationTests {
    @Test func noNotifySocketMeansNoServiceManager() {
        #expect(ServiceNotification(environment: [:], pid: 7) == nil)
        #expect(ServiceNotification(environment: ["NOTIFY_SOCKET": ""], pid: 7) == nil)
        #expect(ServiceNotification(environment: ["NOTIFY_SOCKET": "relative/path"], pid: 7) == nil)
        #expect(ServiceNotification(environment: ["NOTIFY_SOCKET": "@"], pid: 7) == nil)
    }

    @Test func readsThePathOrAbstractNameAndHalvesTheWatchdogInterval() {
        #expect(
            ServiceNotification(environment: ["NOTIFY_SOCKET": "/run/systemd/notify"], pid: 7)
                == ServiceNotification(socketPath: "/run/systemd/notify"))
        #expect(
            ServiceNotification(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "30000000"], pid: 7)
                == ServiceNotification(socketPath: "@x", watchdogInterval: .seconds(15)))
        #expect(
            ServiceNotification(
                environment: ["NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "7"], pid: 7
            )?.watchdogInterval == .seconds(2))
    }

    /// sd_watchdog_enabled(3): a watchdog meant for another process (`WATCHDOG_PID`) or a malformed one is ignored.
    @Test(arguments: [
        ["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "8"], ["WATCHDOG_USEC": "0"], ["WATCHDOG_USEC": "x"],
    ])
    func aWatchdogForAnotherProcessOrMalformedIsIgnored(watchdog: [String: String]) {
        let environment = watchdog.merging(["NOTIFY_SOCKET": "/n"]) { a, _ in a }
        #expect(ServiceNotification(environment: environment, pid: 7)?.watchdogInterval == nil)
    }
}
