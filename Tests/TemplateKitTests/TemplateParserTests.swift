import Testing

@testable import TemplateKit

@Suite struct TemplateParserTests {
    @Test func reportsUnclosedSectionAtItsOpeningTag() {
        let source = "<h1>Home</h1>\n<ul>\n{{# favorites }}\n  <li>{{ name }}</li>\n</ul>\n"
        let error = loadError(["home": source])
        #expect(error == TemplateError(file: "home.html", line: 3, column: 1, reason: .unclosedSection("favorites")))
        #expect(error?.description == "home.html:3:1: unclosed section 'favorites'")
    }

    @Test func reportsUnclosedInvertedSection() {
        let error = loadError(["home": "x {{^ empty }}"])
        #expect(error == TemplateError(file: "home.html", line: 1, column: 3, reason: .unclosedSection("empty")))
    }

    @Test func reportsMismatchedCloseTagAtTheCloseTag() {
        let error = loadError(["home": "{{# a }}\n  {{# b }}\n  {{/ a }}\n{{/ b }}"])
        #expect(
            error
                == TemplateError(
                    file: "home.html", line: 3, column: 3, reason: .mismatchedCloseTag(expected: "b", found: "a")))
        #expect(error?.description == "home.html:3:3: mismatched close tag 'a', expected 'b'")
    }

    @Test func reportsCloseTagWithoutOpenSection() {
        let error = loadError(["home": "ok\n   {{/ stray }}"])
        #expect(error == TemplateError(file: "home.html", line: 2, column: 4, reason: .unexpectedCloseTag("stray")))
    }

    @Test func nestsSectionsInSourceOrder() throws {
        let source = "{{# a }}[{{# b }}({{ . }}){{/ b }}]{{/ a }}"
        #expect(try render(source, ["a": [["b": [1, 2]], ["b": []]]]) == "[(1)(2)][]")
    }

    @Test func reportsTheFirstBrokenTemplateInNameOrder() {
        let error = loadError(["b": "{{# x }}", "a": "{{ }}", "c": "fine"])
        #expect(error?.file == "a.html")
    }
}
