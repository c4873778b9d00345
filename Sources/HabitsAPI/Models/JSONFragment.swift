import Logging

/// Hand-written JSON for the API's objects, the one writer of them: the simulator assembles statistics from
/// pre-encoded pieces by concatenation (a few microseconds) instead of running `JSONEncoder` over the whole tree on
/// every change, and the dashboard writes `snapshot.json` with it (issue 23: `JSONEncoder`'s tree of a 14 MB answer
/// took about 120 MB at once; this appends to one buffer).
///
/// Shapes follow SPEC §3: `User = {id, name, color|null, bio|null}`, `Category = {name, color}`,
/// `Habit = {name, category, info}`, `Color = {h, s, b}`.
public enum JSONFragment {
    /// Appends `text` as a JSON string, whole, escaped as the log's JSON is (`Logger.jsonString`: quote, backslash,
    /// control, line-separator and bidi scalars), the one JSON string escaper.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: Logger.jsonString(text, limit: .max).utf8)
    }

    /// Appends a literal piece of JSON syntax.
    public static func appendRaw(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends an integer.
    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    /// Appends `{"h":…,"s":…,"b":…}`; the components must be finite (the loader and the upstream's decoder see to
    /// it), which Swift prints as valid JSON numbers.
    public static func appendColor(_ color: Color, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"h":\#(color.hue),"s":\#(color.saturation),"b":\#(color.brightness)}"#.utf8)
    }

    /// Appends `{"id":…,"name":…,"color":…|null,"bio":…|null}`: every key always present.
    public static func appendUser(_ user: User, to out: inout [UInt8]) {
        appendRaw(#"{"id":"#, to: &out)
        appendString(user.id, to: &out)
        appendRaw(#","name":"#, to: &out)
        appendString(user.name, to: &out)
        appendRaw(#","color":"#, to: &out)
        if let color = user.color { appendColor(color, to: &out) } else { appendRaw("null", to: &out) }
        appendRaw(#","bio":"#, to: &out)
        if let bio = user.bio { appendString(bio, to: &out) } else { appendRaw("null", to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `{"name":…,"color":…}`.
    public static func appendCategory(_ category: Category, to out: inout [UInt8]) {
        appendRaw(#"{"name":"#, to: &out)
        appendString(category.name, to: &out)
        appendRaw(#","color":"#, to: &out)
        appendColor(category.color, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `{"name":…,"category":{…},"info":…}`: the category resolved into a full object.
    public static func appendHabit(_ habit: Habit, to out: inout [UInt8]) {
        appendRaw(#"{"name":"#, to: &out)
        appendString(habit.name, to: &out)
        appendRaw(#","category":"#, to: &out)
        appendCategory(habit.category, to: &out)
        appendRaw(#","info":"#, to: &out)
        appendString(habit.info, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"h":…,"s":…,"b":…}`.
    public static func color(_ color: Color) -> [UInt8] { fragment { appendColor(color, to: &$0) } }

    /// `{"id":…,"name":…,"color":…|null,"bio":…|null}`.
    public static func user(_ user: User) -> [UInt8] { fragment { appendUser(user, to: &$0) } }

    /// `{"name":…,"color":…}`.
    public static func category(_ category: Category) -> [UInt8] { fragment { appendCategory(category, to: &$0) } }

    /// `{"name":…,"category":{…},"info":…}`.
    public static func habit(_ habit: Habit) -> [UInt8] { fragment { appendHabit(habit, to: &$0) } }

    /// `{"<key>":<value>,…}` from pairs in the given order.
    public static func object(_ members: [(key: String, value: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            out += member.value
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `[<element>,…]`.
    public static func array(_ elements: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(elements.reduce(2) { $0 + $1.count + 1 })
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += element
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    private static func fragment(_ body: (inout [UInt8]) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        body(&out)
        return out
    }
}
