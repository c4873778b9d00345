import Testing

@testable import Logging

/// Issue 48 point 6: the log's bytes of a second are shared, so one client's flood fills its own share and every other
/// client, and the server itself, keeps logging.
@Suite struct LogAllowanceTests {
    @Test func oneSourceTakesAtMostAnEighthOfASecond() {
        var allowance = LogAllowance(bytesPerSecond: 800)
        let began = allowance.enter(second: 1)
        #expect(began)
        let flooded = (0..<20).filter { _ in allowance.take(10, source: "198.51.100.7") }.count
        #expect(flooded == 10)
        let other = allowance.take(10, source: "198.51.100.8")
        #expect(other, "another client still logs")
        let own = allowance.take(10, source: nil)
        #expect(own, "and the server's own lines too")
        #expect(allowance.taken == 120)
    }

    @Test func allSourcesTogetherLeaveAQuarterForTheServersOwnLines() {
        var allowance = LogAllowance(bytesPerSecond: 800)
        _ = allowance.enter(second: 1)
        for client in 0..<10 {
            while allowance.take(10, source: "client \(client)") {}
        }
        #expect(allowance.taken == 600, "three quarters for the clients")
        let own = (0..<30).filter { _ in allowance.take(10, source: nil) }.count
        #expect(own == 20, "the rest for the server")
        let past = allowance.take(1, source: nil)
        #expect(!past, "never more than the second's bound")
    }

    @Test func aNewSecondStartsEveryCountAgain() {
        var allowance = LogAllowance(bytesPerSecond: 800)
        _ = allowance.enter(second: 1)
        while allowance.take(10, source: "a") {}
        let same = allowance.enter(second: 1)
        let stillFull = allowance.take(10, source: "a")
        #expect(!same && !stillFull)
        let next = allowance.enter(second: 2)
        let again = allowance.take(10, source: "a")
        #expect(next && again)
    }

    @Test func sourcesPastTheTableShareOneShare() {
        var allowance = LogAllowance(bytesPerSecond: 8000, maxSources: 4)
        _ = allowance.enter(second: 1)
        let known = (0..<4).filter { allowance.take(10, source: "known \($0)") }.count
        #expect(known == 4)
        // 1 000 bytes is a share: the many newcomers together get one, however many addresses they come from.
        let newcomers = (0..<500).filter { allowance.take(10, source: "newcomer \($0)") }.count
        #expect(newcomers == 100)
        let first = allowance.take(10, source: "known 0")
        #expect(first, "the sources told apart keep their own shares")
    }
}
