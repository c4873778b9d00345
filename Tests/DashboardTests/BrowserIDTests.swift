import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct BrowserIDTests {
    @Test func randomIDIsTwentyTwoBase64URLCharactersAndValidatesItself() {
        for _ in 0..<200 {
            let id = BrowserID.random()
            #expect(id.rawValue.utf8.count == 22)
            #expect(
                id.rawValue.utf8.allSatisfy {
                    $0 == 45 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
                })
            #expect(BrowserID(id.rawValue) == id)
        }
    }

    @Test func encodesSixteenBytesAsUnpaddedBase64URL() {
        // 0xFB 0xFF … exercises the two characters that differ from standard base64 ('-' and '_').
        let id = BrowserID(bytes: [0xFB, 0xFF, 0xBF] + Array(repeating: 0, count: 12) + [0x10])
        #expect(id.rawValue == "-_-_AAAAAAAAAAAAAAAAEA")
    }

    @Test func twoRandomIDsDiffer() {
        #expect(BrowserID.random() != BrowserID.random())
    }

    @Test(arguments: [
        "",
        "../../etc/passwd",
        "../../../../../../etc/pa",  // 24 characters of path
        "AAAAAAAAAAAAAAAAAAAAA",  // 21
        "AAAAAAAAAAAAAAAAAAAAAAA",  // 23
        "AAAAAAAAAAAAAAAAAAAAAB",  // last character carries non-zero padding bits
        "AAAAAAAAAAAAAAAAAAAA+A",  // standard base64, not base64url
        "AAAAAAAAAAAAAAAAAAAA/A",
        "AAAAAAAAAAAAAAAAAAAA=A",
        "AAAAAAAAAAAAAAAAAAAA.A",
        "AAAAAAAAAAAAAAAAAAAA A",
        "AAAAAAAAAAAAAAAAAAAA\0A",
        "AAAAAAAAAAAAAAAAAAAAÄ",  // 22 bytes, one of them not ASCII
        "AAAAAAAAAAAAAAAAAAAA\u{301}",
    ])
    func rejectsAnythingButTheExactForm(value: String) {
        #expect(BrowserID(value) == nil)
    }

    @Test func acceptsCanonicalValues() {
        #expect(BrowserID("AAAAAAAAAAAAAAAAAAAAAA") != nil)
        #expect(BrowserID("zzzzzzzzzzzzzzzzzzzzzw") != nil)
        #expect(BrowserID("-_-_-_-_-_-_-_-_-_-_-g") != nil)
    }
}
