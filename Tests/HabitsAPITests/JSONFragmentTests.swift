import Foundation
import HabitsAPI
import Testing

@Suite struct JSONFragmentTests {
    @Test(arguments: [
        "plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "\u{01}\u{1F}", "Tai chi — Qìgōng", "a/b & c",
    ])
    func stringsRoundTripThroughAJSONParser(_ text: String) throws {
        var out: [UInt8] = []
        JSONFragment.appendString(text, to: &out)
        let decoded = try JSONDecoder().decode([String].self, from: Data("[".utf8 + out + "]".utf8))
        #expect(decoded == [text])
    }

    /// The one JSON string escaper (`Logger.jsonString`): line separators and bidi controls come out escaped, and a
    /// value is kept whole, however long (a log value is cut after 256 bytes).
    @Test func stringsAreEscapedAsTheLogsJSONIsButNeverCut() throws {
        let long = String(repeating: "x", count: 1_000)
        var out: [UInt8] = []
        JSONFragment.appendString("a\u{2028}b\u{202E}c\u{7F}" + long, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #""a\u2028b\u202ec\u007f"# + long + "\"")
    }

    @Test func userObjectsAlwaysCarryEveryKey() throws {
        let json = JSONFragment.user(User(id: "activeUser", name: "Active User"))
        #expect(
            String(decoding: json, as: UTF8.self)
                == #"{"id":"activeUser","name":"Active User","color":null,"bio":null}"#)
    }

    @Test func habitsEmbedTheirCategoryAsAnObject() throws {
        let habit = Habit(
            name: "Read & Reflect",
            category: Category(name: "Mind", color: Color(hue: 0.5, saturation: 1, brightness: 0.25)),
            info: "Say \"hi\".")
        let json = JSONFragment.habit(habit)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        #expect(Set(object.keys) == ["name", "category", "info"])
        let category = try #require(object["category"] as? [String: Any])
        #expect(category["name"] as? String == "Mind")
        #expect((category["color"] as? [String: Double]) == ["h": 0.5, "s": 1, "b": 0.25])
        let decoded = try JSONDecoder().decode(Habit.self, from: Data(json))
        #expect(decoded.info == "Say \"hi\".")
    }

    @Test func objectsKeepMemberOrderAndEscapeKeys() {
        let json = JSONFragment.object([("b/\"x\"", Array("1".utf8)), ("a", Array("[]".utf8))])
        #expect(String(decoding: json, as: UTF8.self) == #"{"b/\"x\"":1,"a":[]}"#)
        #expect(String(decoding: JSONFragment.array([]), as: UTF8.self) == "[]")
    }
}
