import Testing

@testable import Dashboard

@Suite struct EntityTagTests {
    @Test func sameBytesGiveTheSameStrongTagAndOneChangedByteAnother() {
        let tag = EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8))
        #expect(tag == EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8)))
        #expect(tag != EntityTag.strong(for: Array("<p>Yoga 6</p>".utf8)))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
    }
}
