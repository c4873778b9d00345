import HTTPCore
import HTTPServer
import Testing

@testable import DashboardWeb

@Suite struct WokenAnswersTests {
    func request(_ tag: String, gzip: Bool = true) -> Request {
        Request(
            method: .get, target: "/fragments/habits/Yoga",
            headers: HTTPHeaders(
                [("If-None-Match", tag), ("Prefer", "wait=25")] + (gzip ? [("Accept-Encoding", "gzip")] : [])))
    }

    @Test func pollsOfOneChangeThatAskedTheSameShareTheFirstOnesAnswer() {
        let answers = WokenAnswers()
        let key = WokenAnswers.Key(request("\"a\""), wait: 25)
        #expect(answers.answer(for: key, changes: 7) == nil)
        answers.keep(.text("the new fragment"), for: key, changes: 7)
        #expect(
            answers.answer(for: WokenAnswers.Key(request("\"a\""), wait: 25), changes: 7)?.body
                == Array("the new fragment".utf8))
        // Another copy, encoding or wait is another variant.
        #expect(answers.answer(for: WokenAnswers.Key(request("\"b\""), wait: 25), changes: 7) == nil)
        #expect(answers.answer(for: WokenAnswers.Key(request("\"a\"", gzip: false), wait: 25), changes: 7) == nil)
        #expect(answers.answer(for: WokenAnswers.Key(request("\"a\""), wait: 10), changes: 7) == nil)
    }

    @Test func aNewerChangeDropsWhatWasKeptForTheOlderOne() {
        let answers = WokenAnswers()
        let key = WokenAnswers.Key(request("\"a\""), wait: 25)
        answers.keep(.text("old"), for: key, changes: 7)
        #expect(answers.answer(for: key, changes: 8) == nil)
        answers.keep(.text("new"), for: key, changes: 8)
        #expect(answers.answer(for: key, changes: 7) == nil)
        #expect(answers.answer(for: key, changes: 8)?.body == Array("new".utf8))
    }

    @Test func atMostLimitVariantsAreKeptForOneChange() {
        let answers = WokenAnswers()
        for index in 0..<(WokenAnswers.limit + 10) {
            answers.keep(.text("\(index)"), for: WokenAnswers.Key(request("\"\(index)\""), wait: 25), changes: 1)
        }
        let kept = (0..<(WokenAnswers.limit + 10)).filter {
            answers.answer(for: WokenAnswers.Key(request("\"\($0)\""), wait: 25), changes: 1) != nil
        }
        #expect(kept.count == WokenAnswers.limit)
    }
}
