import Synchronization
import Testing

@testable import TemplateKit

@Suite struct TemplateRendererTests {
    // MARK: - Variables

    @Test func printsEscapedVariables() throws {
        let output = try render(#"<p title="{{ name }}">{{ name }}</p>"#, ["name": #"<script>"x" & 'y'"#])
        let escaped = #"&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;"#
        #expect(output == #"<p title=""# + escaped + #"">"# + escaped + "</p>")
    }

    @Test func escapesCombiningMarkBypassAttemptInAnAttribute() throws {
        let output = try render(#"<a title="{{ t }}">"#, ["t": "\"\u{301}><img src=x onerror=alert(1)>"])
        #expect(output == "<a title=\"&quot;\u{301}&gt;&lt;img src=x onerror=alert(1)&gt;\">")
    }

    @Test func passesNonASCIITextThroughIntact() throws {
        #expect(try render("{{ a }}", ["a": "Müsli & Tee 🍵 ñ"]) == "Müsli &amp; Tee 🍵 ñ")
    }

    @Test func printsNumbersFlagsAndNull() throws {
        #expect(
            try render("{{ n }}|{{ m }}|{{ t }}|{{ f }}|{{ z }}|", ["n": 42, "m": -7, "t": true, "f": false, "z": nil])
                == "42|-7|true|false||")
    }

    @Test func escapesTrustedHTMLInAnEscapedTag() throws {
        #expect(try render("{{ h }}", ["h": .trustedHTML("<b>")]) == "&lt;b&gt;")
    }

    @Test func resolvesDottedPaths() throws {
        #expect(try render("{{ user.colour.name }}", ["user": ["colour": ["name": "teal"]]]) == "teal")
    }

    @Test func refusesToPrintListsAndObjects() {
        let error = renderError("x\n {{ items }}", ["items": [1]])
        #expect(
            error
                == TemplateError(
                    file: "page.html", line: 2, column: 2, reason: .valueNotPrintable("items", kind: "list")))
    }

    // MARK: - Raw output

    @Test func rawTagOutputsTrustedHTMLUnescaped() throws {
        #expect(
            try render("<div>{{{ body }}}</div>", ["body": .trustedHTML("<p>Hi &amp; bye</p>")])
                == "<div><p>Hi &amp; bye</p></div>")
    }

    @Test(arguments: [
        (TemplateValue.text("<b>"), "text"), (.int(1), "int"), (.bool(true), "bool"), (.list([]), "list"),
        (.object([:]), "object"),
    ])
    func rawTagRefusesAnythingButTrustedHTML(value: TemplateValue, kind: String) throws {
        let error = renderError("\n  {{{ body }}}", ["body": value])
        #expect(
            error
                == TemplateError(file: "page.html", line: 2, column: 3, reason: .rawValueNotTrusted("body", kind: kind))
        )
        // Not even production mode lets untrusted text through raw.
        #expect(throws: TemplateError.self) { try render("{{{ body }}}", ["body": value], strict: false) }
    }

    @Test func rawTagPrintsNothingForNull() throws {
        #expect(try render("[{{{ body }}}]", ["body": nil]) == "[]")
    }

    // MARK: - Sections

    @Test func sectionRendersOncePerListItem() throws {
        #expect(try render("{{# xs }}<{{ . }}>{{/ xs }}", ["xs": ["a", "<", "c"]]) == "<a><&lt;><c>")
    }

    @Test func sectionOverListOfObjectsResolvesItemFields() throws {
        let people: TemplateValue = ["people": [["name": "Ann", "count": 3], ["name": "Bo", "count": 1]]]
        #expect(try render("{{# people }}{{ name }}={{ count }};{{/ people }}", people) == "Ann=3;Bo=1;")
    }

    @Test func sectionOverEmptyListRendersNothing() throws {
        #expect(try render("[{{# xs }}x{{/ xs }}]", ["xs": []]) == "[]")
    }

    @Test(arguments: [
        (TemplateValue.bool(true), "yes"), (.bool(false), ""), (.text("t"), "yes"), (.text(""), ""), (.int(5), "yes"),
        (.int(0), ""), (.null, ""), (.object([:]), "yes"), (.trustedHTML("<i>"), "yes"),
    ])
    func sectionRendersOnceForTruthyValues(value: TemplateValue, expected: String) throws {
        #expect(try render("{{# v }}yes{{/ v }}", ["v": value]) == expected)
    }

    @Test func sectionOverObjectPushesItOnTheStack() throws {
        #expect(
            try render("{{# user }}{{ name }} ({{ id }}){{/ user }}", ["user": ["name": "Ann", "id": "a1"]])
                == "Ann (a1)")
    }

    @Test func sectionOverTextMakesItTheCurrentItem() throws {
        #expect(try render("{{# bio }}<p>{{ . }}</p>{{/ bio }}", ["bio": "Runs & swims"]) == "<p>Runs &amp; swims</p>")
    }

    @Test func boolSectionKeepsTheEnclosingCurrentItem() throws {
        #expect(
            try render("{{# xs }}{{# flag }}{{ . }}{{/ flag }}{{/ xs }}", ["xs": ["a", "b"], "flag": true]) == "ab")
    }

    @Test func nestedSectionsResolveNamesUpTheStack() throws {
        let value: TemplateValue = [
            "you": "Active User",
            "habits": [["name": "Swim", "users": [["name": "Ann"], ["id": "b"]]]],
        ]
        let source = "{{# habits }}{{# users }}{{ name }}/{{ you }};{{/ users }}{{/ habits }}"
        // The second user has no name, so the innermost object that has one (the habit) answers.
        #expect(try render(source, value) == "Ann/Active User;Swim/Active User;")
    }

    @Test func dottedPathsDoNotClimbTheStackAfterTheFirstSegment() {
        let value: TemplateValue = ["user": ["name": "Ann"], "colour": ["name": "teal"]]
        let error = renderError("{{# user }}{{ user.colour.name }}{{/ user }}", value)
        #expect(error?.reason == .missingValue("user.colour.name"))
    }

    @Test func innermostValueShadowsOuterOnes() throws {
        #expect(try render("{{ n }}{{# o }}{{ n }}{{/ o }}{{ n }}", ["n": 1, "o": ["n": 2]]) == "121")
    }

    // MARK: - Inverted sections

    @Test(arguments: [
        (TemplateValue.bool(false), "none"), (.null, "none"), (.list([]), "none"), (.text(""), "none"),
        (.int(0), "none"), (.bool(true), ""), (.list([1]), ""), (.object([:]), ""),
    ])
    func invertedSectionRendersForFalsyValues(value: TemplateValue, expected: String) throws {
        #expect(try render("{{^ v }}none{{/ v }}", ["v": value]) == expected)
    }

    @Test func invertedSectionPairsWithSectionForEmptyLists() throws {
        let source =
            "{{# favorites }}{{ . }} {{/ favorites }}{{^ favorites }}Favourite a habit to see it here.{{/ favorites }}"
        #expect(try render(source, ["favorites": []]) == "Favourite a habit to see it here.")
        #expect(try render(source, ["favorites": ["Swim"]]) == "Swim ")
    }

    // MARK: - Partials

    @Test func partialsRenderWithTheCurrentContext() throws {
        let templates = ["partials/row": "<li>{{ name }}</li>"]
        #expect(
            try render(
                "<ul>{{# rows }}{{> partials/row }}{{/ rows }}</ul>", ["rows": [["name": "a"], ["name": "<"]]],
                templates: templates)
                == "<ul><li>a</li><li>&lt;</li></ul>")
    }

    @Test func missingValueInAPartialNamesThePartialFile() {
        let error = renderError("{{> partials/card }}", [:], templates: ["partials/card": "<div>\n {{ title }}</div>"])
        #expect(error == TemplateError(file: "partials/card.html", line: 2, column: 2, reason: .missingValue("title")))
    }

    // MARK: - Missing values

    @Test func strictModeReportsMissingKeyWithLineAndColumn() {
        let error = renderError(
            "<h1>{{ title }}</h1>\n<p>{{ user.nmae }}</p>", ["title": "t", "user": ["name": "Ann"]])
        #expect(error == TemplateError(file: "page.html", line: 2, column: 4, reason: .missingValue("user.nmae")))
        #expect(error?.description == "page.html:2:4: missing value 'user.nmae'")
    }

    @Test(arguments: [
        "{{# gone }}x{{/ gone }}", "{{^ gone }}x{{/ gone }}", "{{{ gone }}}", "{{# xs }}{{ gone }}{{/ xs }}",
    ])
    func strictModeRejectsMissingNamesInEveryTagKind(source: String) {
        #expect(renderError(source, ["xs": [1]])?.reason == .missingValue("gone"))
    }

    @Test func productionModeRendersMissingAsEmptyAndReportsIt() throws {
        let reported = Mutex<[TemplateError]>([])
        let library = try TemplateLibrary(
            sources: ["page": "a{{ x }}b\n{{# s }}S{{/ s }}{{^ i }}I{{/ i }}"], strict: false,
            onMissing: { error in reported.withLock { $0.append(error) } })
        #expect(String(decoding: try library.render("page", [:]), as: UTF8.self) == "ab\nI")
        #expect(
            reported.withLock { $0 } == [
                TemplateError(file: "page.html", line: 1, column: 2, reason: .missingValue("x")),
                TemplateError(file: "page.html", line: 2, column: 1, reason: .missingValue("s")),
                TemplateError(file: "page.html", line: 2, column: 18, reason: .missingValue("i")),
            ])
    }

    @Test func nullIsPresentNotMissing() throws {
        #expect(try render("[{{ x }}]{{^ x }}none{{/ x }}", ["x": nil]) == "[]none")
    }
}
