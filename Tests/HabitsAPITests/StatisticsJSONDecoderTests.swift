import Foundation
import HTTPCore
import Testing

@testable import HabitsAPI

/// `/combinedStats` decoded from its bytes (issue 21 point 2) reads exactly what `JSONDecoder` reads.
@Suite struct StatisticsJSONDecoderTests {

    func both(_ bytes: [UInt8]) throws -> (CombinedStatistics, CombinedStatistics) {
        (try StatisticsJSONDecoder.decode(bytes), try JSONDecoder().decode(CombinedStatistics.self, from: Data(bytes)))
    }

    @Test func decodesTheServersOwnAnswerAsJSONDecoderDoes() throws {
        let (ours, theirs) = try both(Fixtures.bytes("combinedStats.json"))
        #expect(try canonical(ours) == canonical(theirs))
        #expect(!ours.userStatistics.isEmpty)
    }

    @Test func readsEscapesNullsAbsentKeysUnknownKeysAndSpace() throws {
        let text = #"""
             { "extra": [1, {"a": null}, true, false, -0.5e3],
               "habitStatistics": [],
               "userStatistics": [ { "user": { "id": "u\"1", "name": "A\u00e9\ud83d\ude00\n\/", "color": null },
                                     "habitCounts": [ { "count": 3, "habit": { "name": "Yoga", "info": "",
                                       "category": { "name": "C", "color": { "h": 1, "s": 0.5, "b": 1e-1 } } } } ] },
                                   { "user": { "id": "u2", "name": "B", "bio": "x", "color": {"h":0,"s":0,"b":0} },
                                     "habitCounts": [] } ] }
            """#
        let (ours, theirs) = try both(Array(text.utf8))
        #expect(try canonical(ours) == canonical(theirs))
        #expect(ours.userStatistics[0].user.name == "Aé😀\n/")
        #expect(ours.userStatistics[0].habitCounts[0].habit.category.color.brightness == 0.1)
    }

    @Test(arguments: [
        #"{"userStatistics": []}"#,
        #"{"userStatistics": [{"user": {"id": "a"}, "habitCounts": []}], "habitStatistics": []}"#,
        #"{"userStatistics": [], "habitStatistics": [{"habit": 1, "userCounts": []}]}"#,
        #"{"userStatistics": [{"user": {"id": "a", "name": "b"}, "habitCounts": [{"habit": {"name": "h", "info": "", "category": {"name": "c", "color": {"h": 0, "s": 0, "b": 0}}}, "count": 1.5}]}], "habitStatistics": []}"#,
        #"{"userStatistics": [], "habitStatistics": []} x"#, #"{"userStatistics": "#, #"{"a": "\ud800"}"#,
        #"{"a": 01}"#, "{\"a\": \"\u{01}\"}",
    ])
    func refusesWhatJSONDecoderRefuses(text: String) {
        #expect(throws: StatisticsJSONDecoder.Failure.self) { try StatisticsJSONDecoder.decode(Array(text.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(CombinedStatistics.self, from: Data(text.utf8)) }
    }
}
