import Foundation
import Testing

@testable import HabitsAPI

/// The last `/combinedStats` answer's entries, reused by their bytes (issue 21 point 2): never stale, never looser
/// than a decode of the whole answer, and holding only the last answer.
@Suite struct StatisticsDecodeMemoTests {

    /// A small answer: users `a` and `b`, one habit, the counts given.
    func answer(aName: String = "Ann", aCount: Int = 1, bCount: Int = 2) -> [UInt8] {
        let habit = #"{"name": "Yoga", "info": "", "category": {"name": "C", "color": {"h": 0, "s": 0, "b": 0}}}"#
        let a = #"{"id": "a", "name": "\#(aName)"}"#
        let b = #"{"id": "b", "name": "Bo", "bio": "x"}"#
        return Array(
            #"""
            {"userStatistics": [{"user": \#(a), "habitCounts": [{"habit": \#(habit), "count": \#(aCount)}]},
                                {"user": \#(b), "habitCounts": [{"habit": \#(habit), "count": \#(bCount)}]}],
             "habitStatistics": [{"habit": \#(habit), "userCounts": [{"user": \#(a), "count": \#(aCount)},
                                                                      {"user": \#(b), "count": \#(bCount)}]}]}
            """#.utf8)
    }

    @Test func decodesEachAnswerAsAWholeDecodeDoesWhateverCameBefore() throws {
        var memo = StatisticsDecodeMemo()
        let answers = [
            answer(), answer(aCount: 5), answer(aCount: 5), answer(aName: "Anna", aCount: 5), answer(bCount: 9),
            answer(),
        ]
        for bytes in answers {
            let reused = try memo.decode(bytes)
            #expect(try canonical(reused) == canonical(StatisticsJSONDecoder.decode(bytes)))
        }
    }

    /// An answer of only user entries, one per (id, count).
    func users(_ people: [(String, Int)]) -> [UInt8] {
        let entries = people.map { id, count in
            #"{"user": {"id": "\#(id)", "name": "N\#(id)"}, "habitCounts": [{"habit": {"name": "Yoga", "info": "","#
                + #" "category": {"name": "C", "color": {"h": 0, "s": 0, "b": 0}}}, "count": \#(count)}]}"#
        }
        return Array(#"{"userStatistics": [\#(entries.joined(separator: ", "))], "habitStatistics": []}"#.utf8)
    }

    /// Entries changed in place, added, removed, repeated and moved: each answer reads as a whole decode reads it.
    @Test func followsEntriesAddedRemovedAndMoved() throws {
        let answers: [[(String, Int)]] = [
            [("a", 1), ("b", 2), ("c", 3), ("d", 4)], [("a", 1), ("b", 5), ("c", 3), ("d", 4)],
            [("a", 1), ("b", 5), ("c", 3), ("d", 9)], [("x", 0), ("a", 1), ("b", 5), ("c", 3), ("d", 9)],
            [("x", 0), ("b", 5), ("c", 3), ("d", 9)], [("d", 9), ("c", 3), ("b", 5), ("x", 0)],
            [("d", 9), ("d", 9), ("c", 7), ("b", 6), ("x", 0)], [("c", 7)], [],
        ]
        var memo = StatisticsDecodeMemo()
        for people in answers {
            let bytes = users(people)
            let reused = try memo.decode(bytes)
            #expect(try canonical(reused) == canonical(StatisticsJSONDecoder.decode(bytes)))
            #expect(reused.userStatistics.map(\.user.id) == people.map(\.0))
            #expect(reused.userStatistics.map { $0.habitCounts[0].count } == people.map(\.1))
        }
    }

    /// A renamed user's entry has other bytes, so it is decoded again: the old name never comes back.
    @Test func takesAChangedEntryFromTheNewBytesNeverFromTheMemo() throws {
        var memo = StatisticsDecodeMemo()
        _ = try memo.decode(answer())
        let renamed = try memo.decode(answer(aName: "Anna", aCount: 1))
        #expect(renamed.userStatistics[0].user.name == "Anna")
        #expect(renamed.habitStatistics[0].userCounts[0].user.name == "Anna")
        #expect(renamed.userStatistics[1].user.name == "Bo")
    }

    @Test func holdsOnlyTheLastAnswersEntries() throws {
        var memo = StatisticsDecodeMemo()
        _ = try memo.decode(answer())
        #expect(memo.count == 3)
        for count in 10..<20 { _ = try memo.decode(answer(aCount: count)) }
        #expect(memo.count == 3)
        _ = try memo.decode(Array(#"{"userStatistics": [], "habitStatistics": []}"#.utf8))
        #expect(memo.count == 0)
    }

    /// Entries the memo knows do not make a broken answer around them pass, and a failure keeps the memo.
    @Test(arguments: [
        #"{"userStatistics": [], "habitStatistics": []"#, #"{"userStatistics": [], "habitStatistics": []} x"#,
        #"{"userStatistics": [}"#,
    ])
    func refusesMalformedAnswersAndKeepsTheMemo(text: String) throws {
        var memo = StatisticsDecodeMemo()
        _ = try memo.decode(answer())
        #expect(throws: StatisticsJSONDecoder.Failure.self) { try memo.decode(Array(text.utf8)) }
        #expect(memo.count == 3)
        var broken = answer()
        broken.removeLast(2)
        #expect(throws: StatisticsJSONDecoder.Failure.self) { try memo.decode(broken) }
        #expect(memo.count == 3)
    }

    /// Skipping is recursive: an upstream's deep nesting ends in an error, not a stack overflow.
    @Test func refusesNestingDeeperThanTheBound() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let text = #"{"extra": \#(deep), "userStatistics": [], "habitStatistics": []}"#
        #expect(throws: StatisticsJSONDecoder.Failure.self) { try StatisticsJSONDecoder.decode(Array(text.utf8)) }
        let depth = StatisticsJSONDecoder.maximumDepth - 1
        let allowed = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        let fits = #"{"extra": \#(allowed), "userStatistics": [], "habitStatistics": []}"#
        #expect(try StatisticsJSONDecoder.decode(Array(fits.utf8)).userStatistics.isEmpty)
    }

    /// Keys are compared as bytes after unescaping, as `JSONDecoder` compares them.
    @Test func readsEscapedKeys() throws {
        let text = #"{"us\u0065rStatistics": [], "habit\u0053tatistics": []}"#
        let statistics = try StatisticsJSONDecoder.decode(Array(text.utf8))
        #expect(statistics.userStatistics.isEmpty && statistics.habitStatistics.isEmpty)
    }
}
