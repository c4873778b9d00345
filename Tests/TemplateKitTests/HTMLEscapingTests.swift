import Testing

@testable import TemplateKit

@Suite struct HTMLEscapingTests {
    @Test(arguments: [
        ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;"),
        ("plain", "plain"), ("", ""),
        (#"<a href="x">Tom & 'Jerry'</a>"#, #"&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"#),
    ])
    func escapesEachSpecialCharacter(input: String, expected: String) {
        #expect(HTMLEscaping.escape(input) == expected)
    }

    /// `"` + U+0301 is one `Character` ("\u{22}\u{301}"), not equal to `"`: a Character table lets it through.
    @Test func escapesQuoteFollowedByCombiningAcute() {
        let attack = "\"\u{301} onmouseover=alert(1) x=\"\u{301}"
        #expect(attack.first != "\"")  // the precondition of the bypass: the first Character is not a plain quote
        #expect(HTMLEscaping.escape(attack) == "&quot;\u{301} onmouseover=alert(1) x=&quot;\u{301}")
    }

    @Test(arguments: ["\u{300}", "\u{20D2}", "\u{FE0F}", "\u{200D}", "\u{1F3FB}"])
    func escapesEverySpecialCharacterFollowedByACombiningMark(mark: String) {
        let input = ["&", "<", ">", "\"", "'"].map { $0 + mark }.joined()
        let expected = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].map { $0 + mark }.joined()
        #expect(HTMLEscaping.escape(input) == expected)
    }

    @Test func passesNonASCIITextThroughByteForByte() {
        let text = "Zoë läuft 5 km — 日本語 🏃🏽‍♀️ e\u{301}"
        #expect(Array(HTMLEscaping.escape(text).utf8) == Array(text.utf8))
    }

    @Test func escapesInsideNonASCIIText() {
        #expect(HTMLEscaping.escape("Café <b>Ünïcode</b> & 🙂") == "Café &lt;b&gt;Ünïcode&lt;/b&gt; &amp; 🙂")
    }

    @Test func appendsToExistingOutput() {
        var output = Array("x=".utf8)
        HTMLEscaping.append(escaping: "<y>", to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "x=&lt;y&gt;")
    }

    @Test func escapesBridgedAndNonContiguousStrings() {
        // A Substring-built String and a very long one exercise withUTF8's copy path and the run copying.
        let long = String(repeating: "ab<", count: 1000)
        #expect(HTMLEscaping.escape(long) == String(repeating: "ab&lt;", count: 1000))
        let sliced = String("--<>--".dropFirst(2).dropLast(2))
        #expect(HTMLEscaping.escape(sliced) == "&lt;&gt;")
    }
}
