import Testing

@testable import TemplateKit

@Suite struct TemplateLexerTests {
    // MARK: - Tags

    @Test func acceptsTagsWithAndWithoutInnerWhitespace() throws {
        let output = try render("{{a}}|{{ a }}|{{\ta\t}}|{{#b}}x{{/b}}|{{# b }}y{{/ b }}", ["a": "1", "b": true])
        #expect(output == "1|1|1|x|y")
    }

    @Test func dropsComments() throws {
        #expect(try render("a{{! a comment with } and # inside }}b", [:]) == "ab")
    }

    @Test func keepsSingleBracesAsText() throws {
        #expect(try render("{ x } {a} }}", [:]) == "{ x } {a} }}")
    }

    @Test func reportsLineAndColumnInUnicodeScalars() {
        // "é" is two bytes but one column; the tag starts at column 4 of line 2.
        let error = renderError("line one\nAé {{ missing }}", [:])
        #expect(error == TemplateError(file: "page.html", line: 2, column: 4, reason: .missingValue("missing")))
    }

    @Test func countsLinesInsideMultiLineTags() {
        let error = renderError("{{!\n\n}}\n  {{ gone }}", [:])
        #expect(error?.line == 4)
        #expect(error?.column == 3)
    }

    // MARK: - Load errors

    @Test func rejectsUnterminatedTagAtItsOpening() {
        let error = loadError(["home": "<p>\n  <b>{{ name </b>\n</p>"])
        #expect(error == TemplateError(file: "home.html", line: 2, column: 6, reason: .unterminatedTag))
        #expect(error?.description == "home.html:2:6: unterminated tag")
    }

    @Test func rejectsTagInterruptedByAnotherTag() {
        let error = loadError(["home": "{{ a {{ b }}"])
        #expect(error == TemplateError(file: "home.html", line: 1, column: 1, reason: .unterminatedTag))
    }

    @Test func rejectsRawTagClosedWithTwoBraces() {
        let error = loadError(["home": "x\n{{{ body }}"])
        #expect(error == TemplateError(file: "home.html", line: 2, column: 1, reason: .unterminatedTag))
    }

    @Test(arguments: ["{{}}", "{{  }}", "{{#}}", "{{/ }}", "{{>}}", "{{{ }}}", "{{^\n}}"])
    func rejectsEmptyTagName(source: String) {
        let error = loadError(["page": "ab " + source])
        #expect(error == TemplateError(file: "page.html", line: 1, column: 4, reason: .emptyTagName))
    }

    @Test(arguments: ["a b", "a..b", ".a", "a.", "&x", "=| |=", "a/b", "{x"])
    func rejectsInvalidVariableNames(name: String) {
        let error = loadError(["page": "{{ \(name) }}"])
        #expect(error == TemplateError(file: "page.html", line: 1, column: 1, reason: .invalidTagName(name)))
    }

    @Test(arguments: ["../secret", "partials//nav", "/etc/passwd", "partials/", "a.b"])
    func rejectsPartialNamesThatAreNotPlainRelativePaths(name: String) {
        let error = loadError(["page": "{{> \(name) }}"])
        #expect(error?.reason == .invalidTagName(name))
    }

    // MARK: - Standalone lines

    @Test func sectionTagsAloneOnTheirLinesLeaveNoBlankLines() throws {
        let source = """
            <ul>
              {{# items }}
              <li>{{ . }}</li>
              {{/ items }}
            </ul>
            """
        let expected = #"""
            <ul>
              <li>a</li>
              <li>b</li>
            </ul>
            """#
        #expect(try render(source, ["items": ["a", "b"]]) == expected)
    }

    @Test func standaloneRuleAppliesToInvertedCommentAndPartialTags() throws {
        let source = "a\n  {{^ none }}\nb\n {{/ none }}\n\t{{! note }}\n{{> p }}\nc"
        #expect(try render(source, ["none": false], templates: ["p": "P\n"]) == "a\nb\nP\nc")
    }

    @Test func standaloneTagsAtStartAndEndOfTemplateTakeTheirLine() throws {
        #expect(try render("  {{# on }}\nx\n{{/ on }}  ", ["on": true]) == "x\n")
    }

    @Test func windowsLineEndingsCountAsStandalone() throws {
        #expect(try render("a\r\n{{# on }}\r\nb\r\n{{/ on }}\r\nc", ["on": true]) == "a\r\nb\r\nc")
    }

    @Test func tagsSharingALineWithTextOrVariablesAreNotStandalone() throws {
        #expect(try render(" {{# on }}x{{/ on }}\n", ["on": true]) == " x\n")
        #expect(try render("{{ v }} {{# on }}\nx\n{{/ on }}", ["on": true, "v": "v"]) == "v \nx\n")
        #expect(try render("{{# on }}{{/ on }}\n", ["on": true]) == "\n")
    }

    @Test func variableTagsAloneOnALineKeepTheirLine() throws {
        #expect(try render("a\n  {{ v }}\nb", ["v": "x"]) == "a\n  x\nb")
    }
}
