import Testing

@testable import TemplateKit

/// Issue 23: control characters and bidi controls from the upstream never reach the page.
extension HTMLEscapingTests {
    @Test func dropsControlCharactersButKeepsTabAndNewline() {
        #expect(HTMLEscaping.escape("A\u{0}l\u{1}i\u{1B}[31mce\r\u{7F}") == "Ali[31mce")
        #expect(HTMLEscaping.escape("a\tb\nc") == "a\tb\nc")
        #expect(HTMLEscaping.escape("x\u{85}y\u{9F}z\u{80}") == "xyz")
    }

    /// A name with RIGHT-TO-LEFT OVERRIDE would reverse the text after it ("Bob‮ rof etov" shows as "Bob vote for").
    @Test(arguments: [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{61C}",
    ])
    func dropsBidiControls(control: String) {
        #expect(HTMLEscaping.escape("Bob\(control) <i>") == "Bob &lt;i&gt;")
    }

    /// What shares a lead byte with a dropped character stays: the en dash, the ellipsis, the euro, ©, Arabic.
    @Test func keepsTheirNeighbours() {
        let text = "– … € © · ° \u{A0} \u{2065} \u{202F} \u{200D} \u{600} \u{61B} \u{61D} عربي"
        #expect(HTMLEscaping.escape(text) == text)
    }
}
