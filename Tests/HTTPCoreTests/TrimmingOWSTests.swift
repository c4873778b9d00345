import HTTPCore
import Testing

/// The one trim of optional whitespace around a list element or parameter (RFC 9110 §5.6.3), shared by the live
/// polls' `Prefer` reading and the forwarded client's address.
struct TrimmingOWSTests {
    @Test(arguments: [
        (" \t wait=3 \t", "wait=3"), ("198.51.100.7", "198.51.100.7"), ("   ", ""), ("", ""),
        (" a b ", "a b"), ("\u{0B}x\u{0B}", "\u{0B}x\u{0B}"), ("\r\nx", "\r\nx"),
    ])
    func onlySpacesAndTabsAtTheEndsGo(text: String, trimmed: String) {
        #expect(String(text[...].trimmingOWS) == trimmed)
        #expect(String(Substring(text[...].utf8.trimmingOWS)) == trimmed)
    }

    @Test func theTrimIsASliceOfTheSameText() {
        let text = "  203.0.113.9 , x"
        let element = text.split(separator: ",")[0]
        let trimmed = element.trimmingOWS
        #expect(trimmed == "203.0.113.9")
        #expect(trimmed.startIndex == text.index(text.startIndex, offsetBy: 2))
    }
}
