import Testing

@testable import HTTPServer

@Suite struct QueryParametersTests {
    @Test func parsesPairsInOrderWithRepeats() {
        let query = Request(method: .get, target: "/s?ids=a&ids=b&name=two+words&flag&empty=").query
        #expect(query["ids"] == "a")
        #expect(query.values("ids") == ["a", "b"])
        #expect(query["name"] == "two words")
        #expect(query["flag"] == "")
        #expect(query["empty"] == "")
        #expect(query["missing"] == nil)
    }

    @Test func decodesEncodedNamesAndValuesOnce() {
        let query = Request(method: .get, target: "/s?na%6De=%2541&x=%26%3D").query
        #expect(query["name"] == "%41")
        #expect(query["x"] == "&=")
    }

    /// Found by Fuzz/FormsFuzz: splitting `Character`s kept `&` + U+0301 (one grapheme) inside a value.
    @Test func separatorsFollowedByACombiningMarkStillSeparate() {
        let form = QueryParameters(parsing: "a=1&\u{301}b=2=\u{301}3"[...])
        #expect(form.pairs.map(\.name) == ["a", "\u{301}b"])
        #expect(form.pairs.map(\.value) == ["1", "2=\u{301}3"])
        let flag = QueryParameters(parsing: "x=\u{301}y"[...])
        #expect(flag["x"] == "\u{301}y")
    }

    /// Found by Fuzz/FormsFuzz: the query began one Character after `?`, which dropped a leading combining mark.
    @Test func queryStartingWithACombiningMarkKeepsIt() {
        let request = Request(method: .get, target: "/s?\u{301}x=1")
        #expect(request.rawQuery.map { Array($0.unicodeScalars) } == Array("\u{301}x=1".unicodeScalars))
        #expect(request.query.pairs.map(\.name) == ["\u{301}x"])
    }

    @Test func noQueryGivesEmptyParameters() {
        #expect(Request(method: .get, target: "/s").query.isEmpty)
        #expect(Request(method: .get, target: "/s?").query.isEmpty)
    }

    @Test func pathIsTheRawTargetBeforeTheQuery() {
        let request = Request(method: .get, target: "/habits/Push-ups%2FSit-ups?x=1")
        #expect(request.path == "/habits/Push-ups%2FSit-ups")
        #expect(request.pathSegments == ["habits", "Push-ups/Sit-ups"])
        #expect(Request(method: .get, target: "/").pathSegments == [])
        #expect(Request(method: .get, target: "/a/").pathSegments == ["a", ""])
    }

    @Test func encodedRoundTrips() {
        let query = QueryParameters([(name: "q", value: "a b&c"), (name: "n", value: "1")])
        #expect(QueryParameters(parsing: query.encoded[...]) == query)
    }
}
