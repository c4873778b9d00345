import Testing
import Timing

@testable import HTTPServer

@Suite struct CoreSharingTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    func at(_ microseconds: Int) -> MonotonicInstant { start + .microseconds(microseconds) }

    /// Rounds that find their events ready: each `epoll_wait` returns in 2 µs.
    func busyRounds(_ sharing: inout CoreSharing, from first: Int, to last: Int, every step: Int) -> [Int] {
        var yieldedAt: [Int] = []
        for microseconds in stride(from: first, through: last, by: step) {
            sharing.answersSent()
            if sharing.shouldYield(now: at(microseconds)) { yieldedAt.append(microseconds) }
            sharing.waited(from: at(microseconds), to: at(microseconds + 2))
        }
        return yieldedAt
    }

    @Test func aLoopBusyWithAnswersOutYieldsOncePerBudget() {
        var sharing = CoreSharing(start: start)
        let yielded = busyRounds(&sharing, from: 30, to: 330, every: 30)
        #expect(yielded == [120, 240])
    }

    @Test func aLoopThatWaitsBetweenRoundsNeverYields() {
        var sharing = CoreSharing(start: start)
        var yielded = 0
        for round in 0..<50 {
            let roundEnd = at(round * 1_000 + 40)
            sharing.answersSent()
            if sharing.shouldYield(now: roundEnd) { yielded += 1 }
            // Asleep until the next request, 1 ms on.
            sharing.waited(from: roundEnd, to: at((round + 1) * 1_000))
        }
        #expect(yielded == 0)
    }

    @Test func aBusyLoopWithNothingSentKeepsItsCore() {
        var sharing = CoreSharing(start: start)
        let withNothingSent = sharing.shouldYield(now: at(500))
        sharing.answersSent()
        let withAnswersOut = sharing.shouldYield(now: at(600))
        let rightAfter = sharing.shouldYield(now: at(800))
        #expect(!withNothingSent)
        #expect(withAnswersOut)
        #expect(!rightAfter)
    }

    @Test func aWaitThatLeftTheCoreStartsTheBusyStretchAgain() {
        var sharing = CoreSharing(start: start)
        sharing.answersSent()
        sharing.waited(from: at(90), to: at(150))
        #expect(sharing.busySince == at(150))
        #expect(!sharing.sent)
        sharing.answersSent()
        let beforeTheBudget = sharing.shouldYield(now: at(240))
        let atTheBudget = sharing.shouldYield(now: at(250))
        #expect(!beforeTheBudget)
        #expect(atTheBudget)
    }

    @Test func aShortWaitAddsToTheStretchInsteadOfStartingItAgain() {
        var sharing = CoreSharing(start: start)
        sharing.answersSent()
        sharing.waited(from: at(90), to: at(93))
        #expect(sharing.busySince == start)
        #expect(sharing.waitedInStretch == 3_000)
        let yielded = sharing.shouldYield(now: at(140))
        #expect(yielded)
    }

    /// At c = 1 on loopback: 15 µs of work per request, then 10-30 µs asleep until the next one.
    @Test func aLoopWhoseShortWaitsFillAQuarterOfTheStretchDoesNotYield() {
        var sharing = CoreSharing(start: start)
        var microseconds = 0
        var yielded = 0
        for round in 0..<60 {
            microseconds += 15
            sharing.answersSent()
            if sharing.shouldYield(now: at(microseconds)) { yielded += 1 }
            let wait = 10 + (round % 3) * 10
            sharing.waited(from: at(microseconds), to: at(microseconds + wait))
            microseconds += wait
        }
        #expect(yielded == 0)
    }

    @Test func aStretchThatWaitedItsShareEndsAndTheNextIsJudgedAlone() {
        var sharing = CoreSharing(start: start)
        sharing.answersSent()
        sharing.waited(from: at(10), to: at(40))
        let afterWaiting = sharing.shouldYield(now: at(100))
        #expect(!afterWaiting)
        #expect(sharing.busySince == at(100))
        #expect(sharing.waitedInStretch == 0)
        let yieldedAt = busyRounds(&sharing, from: 130, to: 250, every: 30)
        #expect(yieldedAt == [220])
    }
}
