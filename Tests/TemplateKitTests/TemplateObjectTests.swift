import Testing

@testable import TemplateKit

@Suite struct TemplateObjectTests {
    @Test func aNameWrittenTwiceKeepsItsLastValue() {
        let object: TemplateObject = ["name": "Ann", "count": 1, "name": "Bob"]
        #expect(object["name"] == .text("Bob"))
        #expect(object["count"] == .int(1))
        #expect(object.names == ["name", "count"])
    }

    @Test func aMissingNameHasNoValue() {
        let object: TemplateObject = ["name": "Ann"]
        #expect(object["title"] == nil)
        #expect(TemplateObject()["name"] == nil)
    }

    @Test func settingReplacesAddsAndRemoves() {
        var object: TemplateObject = ["name": "Ann", "count": 1, "name": "Old"]
        object["name"] = "Bob"
        object["title"] = "Yoga"
        object["count"] = nil
        #expect(object["name"] == .text("Bob"))
        #expect(object["title"] == .text("Yoga"))
        #expect(object["count"] == nil)
        #expect(object.names == ["name", "title"])
    }

    @Test func theObjectMergedInWinsWhereBothNameAValue() {
        let page: TemplateObject = ["title": "Home", "count": 3]
        let layout: TemplateObject = ["title": "Layout", "css": "/app.css"]
        let merged = page.merging(layout)
        #expect(merged["title"] == .text("Layout"))
        #expect(merged["count"] == .int(3))
        #expect(merged["css"] == .text("/app.css"))
        #expect(layout.merging(page)["title"] == .text("Home"))
    }

    @Test func objectsAreEqualWhenTheyNameTheSameValuesInAnyOrder() {
        let one: TemplateObject = ["a": 1, "b": "x"]
        #expect(one == ["b": "x", "a": 1])
        #expect(one == ["a": 2, "b": "x", "a": 1])
        #expect(one != ["a": 1])
        #expect(one != ["a": 1, "b": "y"])
        #expect(one != ["a": 1, "b": "x", "c": nil])
    }

    @Test func aSectionSeesTheLastValueOfARepeatedName() throws {
        let value: TemplateValue = ["name": "first", "card": ["name": "<a>", "name": "card"], "name": "last"]
        #expect(try render("{{ name }}|{{# card }}{{ name }}{{/ card }}", value) == "last|card")
    }
}
