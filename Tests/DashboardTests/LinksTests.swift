import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct LinksTests {
    @Test func namesTravelAsOnePercentEncodedSegment() {
        #expect(Links.habit("Push-ups/Sit-ups") == "/habits/Push-ups%2FSit-ups")
        #expect(Links.habitFavorite("Café & co") == "/habits/Caf%C3%A9%20%26%20co/favorite")
        #expect(Links.person("user 0") == "/people/user%200")
        #expect(Links.personFollow("user0") == "/people/user0/follow")
        #expect(Links.image("...") == "/images/...")
    }

    /// Regression: `/habits/..` is resolved by every browser to `/` (and `%2E%2E` too, WHATWG URL), so the names `.`
    /// and `..` travel in the query after an empty segment.
    @Test func dotSegmentNamesTravelInTheQuery() {
        #expect(Links.habit("..") == "/habits/?name=..")
        #expect(Links.habit(".") == "/habits/?name=.")
        #expect(Links.habitFavorite("..") == "/habits//favorite?name=..")
        #expect(Links.person(".") == "/people/?id=.")
        #expect(Links.personFollow("..") == "/people//follow?id=..")
        #expect(Links.image("..") == "/images/?id=..")
    }

    @Test func elementIDsAreStableValidAndDistinct() {
        // Pinned: a redirect written by one process (`/habits#h-…`) is followed on a page another one rendered, and
        // bookmarks keep them, so the digest may never change (FNV-1a 64 of the UTF-8 bytes, 16 hex digits).
        #expect(Links.elementID(habit: "Yoga") == "h-fda50955a9d328c9")
        #expect(Links.elementID(person: "user1") == "p-4228c671628ca359")
        #expect(Links.elementID(habit: "Yoga") != Links.elementID(habit: "yoga"))
        #expect(Links.elementID(person: "user1").hasPrefix("p-"))
        for value in ["", "Push-ups/Sit-ups", "<script>", "Café"] {
            let id = Links.elementID(habit: value)
            #expect(id.count == 18)
            #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        }
    }
}
