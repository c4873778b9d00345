import Testing

@testable import Dashboard

@Suite struct EntityTagTests {
    @Test func sameBytesGiveTheSameStrongTagAndOneChangedByteAnother() {
        let tag = EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8))
        #expect(tag == EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8)))
        #expect(tag != EntityTag.strong(for: Array("<p>Yoga 6</p>".utf8)))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
    }

    @Test(arguments: [
        (#""abc""#, true), (#""x", "abc""#, true), (#"W/"abc""#, true), ("*", true), (#""abcd""#, false),
        ("abc", false), ("", false),
    ])
    func ifNoneMatchUsesWeakComparisonOverAList(header: String, matches: Bool) {
        #expect(EntityTag.matches(header, #""abc""#) == matches)
    }

    @Test func missingHeaderNeverMatches() {
        #expect(!EntityTag.matches(nil, #""abc""#))
    }
}
