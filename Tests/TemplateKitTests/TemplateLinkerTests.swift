import Testing

@testable import TemplateKit

@Suite struct TemplateLinkerTests {
    @Test func reportsUnknownPartialWhereItIsIncluded() {
        let error = loadError(["home": "<main>\n  {{> partials/navv }}\n</main>", "partials/nav": "<nav></nav>"])
        #expect(
            error == TemplateError(file: "home.html", line: 2, column: 3, reason: .unknownPartial("partials/navv")))
        #expect(error?.description == "home.html:2:3: unknown partial 'partials/navv'")
    }

    @Test func reportsUnknownPartialInsideASection() {
        let error = loadError(["home": "{{# a }}{{^ b }} {{> nope }}{{/ b }}{{/ a }}"])
        #expect(error == TemplateError(file: "home.html", line: 1, column: 18, reason: .unknownPartial("nope")))
    }

    @Test func rejectsAPartialThatIncludesItself() {
        let error = loadError(["tree": "<li>{{# children }}{{> tree }}{{/ children }}</li>"])
        #expect(
            error == TemplateError(file: "tree.html", line: 1, column: 20, reason: .recursivePartial(["tree", "tree"])))
    }

    @Test func rejectsAPartialCycleThroughSeveralTemplates() {
        let error = loadError([
            "page": "{{> partials/a }}", "partials/a": "A {{> partials/b }}", "partials/b": "B\n{{> partials/a }}",
        ])
        #expect(
            error
                == TemplateError(
                    file: "partials/b.html", line: 2, column: 1,
                    reason: .recursivePartial(["partials/a", "partials/b", "partials/a"])))
        #expect(error?.description == "partials/b.html:2:1: recursive partial: partials/a -> partials/b -> partials/a")
    }

    @Test func acceptsAPartialIncludedTwiceAlongDifferentPaths() throws {
        let templates = ["a": "a{{> c }}", "b": "b{{> c }}", "c": "c"]
        #expect(try render("{{> a }}{{> b }}{{> c }}", [:], templates: templates) == "acbcc")
    }
}
