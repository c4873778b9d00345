import HTTPCore
import Testing

@Suite struct IfNoneMatchTests {
    /// Moved from DashboardTests' EntityTagTests: a list, `*`, weak comparison.
    @Test(arguments: [
        (#""abc""#, true), (#""x", "abc""#, true), (#"W/"abc""#, true), ("*", true), (#""abcd""#, false),
        ("abc", false), ("", false),
    ])
    func ifNoneMatchUsesWeakComparisonOverAList(header: String, matches: Bool) {
        #expect(IfNoneMatch.matches(header, etag: #""abc""#) == matches)
    }

    @Test func missingHeaderNeverMatches() {
        #expect(!IfNoneMatch.matches(nil, etag: #""abc""#))
    }

    /// Weak comparison (RFC 9110 §8.8.3.2) ignores `W/` on either side, or both.
    @Test(arguments: [
        (#""abc""#, #""abc""#), (#"W/"abc""#, #""abc""#), (#""abc""#, #"W/"abc""#), (#"W/"abc""#, #"W/"abc""#),
    ])
    func weakAndStrongTagsWithTheSameOpaqueTagMatch(header: String, etag: String) {
        #expect(IfNoneMatch.matches(header, etag: etag))
    }

    /// Whitespace around elements and empty elements are part of the list syntax (RFC 9110 §5.6.1).
    @Test(arguments: [
        #"  "abc"  "#, "\t\"abc\"\t", #""x" , "abc""#, #""x",  W/"abc""#, #", , "abc","#, #""x",,"abc""#, " * ",
    ])
    func listWhitespaceAndEmptyElementsAreAllowed(header: String) {
        #expect(IfNoneMatch.matches(header, etag: #""abc""#))
    }

    /// The last element counts as much as the first, and a tag that only contains ours is not ours.
    @Test(arguments: [
        (#""a", "b", "abc""#, true), (#""abc", "a""#, true), (#""ab", "bc""#, false), (#""xabc""#, false),
        (#""ABC""#, false),
    ])
    func everyElementIsComparedWholeAndCaseSensitively(header: String, matches: Bool) {
        #expect(IfNoneMatch.matches(header, etag: #""abc""#) == matches)
    }

    /// A comma inside a quoted tag is part of the tag (etagc allows it), not a list separator.
    @Test func aCommaInsideATagIsPartOfIt() {
        #expect(IfNoneMatch.matches(#""x", "a,b""#, etag: #""a,b""#))
        #expect(!IfNoneMatch.matches(#""a,b""#, etag: #""a""#))
    }

    /// Anything that is not `*` or a list of entity-tags matches nothing, even when our tag appears in it: a full
    /// answer is always correct, a wrong 304 never is.
    @Test(arguments: [
        #""abc", *"#, #"*, "abc""#, "**", #"w/"abc""#, #"W "abc""#, #"W/abc"#, #""abc" "x""#, #""abc""x""#,
        #""abc"#, #"abc""#, #""abc", "x"#, #""abc", junk"#, "\"abc\", \"a\u{7F}\"", "\"abc\", \"a b\"", ",",
    ])
    func malformedValuesMatchNothing(header: String) {
        #expect(!IfNoneMatch.matches(header, etag: #""abc""#))
    }

    /// obs-text (bytes from 0x80) is allowed inside a tag.
    @Test func tagsMayHoldObsText() {
        #expect(IfNoneMatch.matches(#""x", "é""#, etag: #""é""#))
    }
}
