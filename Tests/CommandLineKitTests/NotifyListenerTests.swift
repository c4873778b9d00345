import TestSupport
import Testing

/// The test helper `NotifyListener` itself: `ServiceNotifierTests` claims "nothing more is sent" by waiting 300 ms,
/// which only holds if the wait really is 300 ms.
@Suite struct NotifyListenerTests {
    @Test func aSubSecondTimeoutKeepsItsMilliseconds() {
        #expect(NotifyListener.pollMilliseconds(.milliseconds(300)) == 300)
        #expect(NotifyListener.pollMilliseconds(.seconds(60)) == 60_000)
        #expect(NotifyListener.pollMilliseconds(.milliseconds(1_250)) == 1_250)
    }
}
