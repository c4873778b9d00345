import Testing

@testable import TemplateKit

@Suite struct TemplateValueTests {
    @Test func literalsBuildTheMatchingCases() {
        let value: TemplateValue = ["name": "Ann", "count": 3, "ok": true, "tags": ["a", "b"], "none": nil]
        #expect(
            value
                == .object([
                    "name": .text("Ann"), "count": .int(3), "ok": .bool(true),
                    "tags": .list([.text("a"), .text("b")]), "none": .null,
                ]))
    }

    @Test func interpolatedStringsAreUntrustedText() {
        let name = "<b>"
        let value: TemplateValue = "Hi \(name)"
        #expect(value == .text("Hi <b>"))
    }

    @Test func optionalStringBecomesTextOrNull() {
        #expect(TemplateValue(Optional("x")) == .text("x"))
        #expect(TemplateValue(String?.none) == .null)
    }

    @Test(arguments: [
        (TemplateValue.text("x"), true), (.text(""), false), (.bool(true), true), (.bool(false), false),
        (.int(2), true), (.int(0), false), (.list([.null]), true), (.list([]), false), (.object([:]), true),
        (.trustedHTML("<p>"), true), (.trustedHTML(""), false), (.null, false),
    ])
    func truthinessDecidesWhetherASectionRenders(value: TemplateValue, truthy: Bool) {
        #expect(value.isTruthy == truthy)
    }
}
