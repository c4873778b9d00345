import TemplateKit

/// A rank change as a page shows it (issue 22 point 3): its sentence, the habit it names (a link) and when, worded
/// relative to now ("Cy Young passed you in Yoga · 4 min ago").
public struct MomentLine: Hashable, Sendable {
    /// The whole sentence, e.g. "Cy Young passed you in Yoga".
    public var sentence: String
    /// The text before the habit's name ("Cy Young passed you in ").
    public var prefix: String
    /// The habit (a link on the page).
    public var habit: String
    /// When it happened.
    var time: TimeText
    /// A stable id (`live.js` announces an id it has not seen).
    public var id: String

    /// The line of `change`, seen from `now` (seconds since 1970). `inHabit: false` leaves the habit out (a card
    /// that is the habit: "Cy Young took the lead").
    init(_ change: RankChange, now: Int, inHabit: Bool = true) {
        sentence = inHabit ? change.sentence : String(change.sentence.dropLast(change.habit.count + 4))
        prefix = inHabit ? String(change.sentence.dropLast(change.habit.count)) : sentence
        habit = inHabit ? change.habit : ""
        time = TimeText(second: change.second, now: now)
        var digest = ContentDigest()
        digest.feed(Int(change.kind.rawValue))
        digest.feed(change.habit)
        digest.feed(change.userID)
        digest.feed(change.second)
        id = "m-" + String(digest.value, radix: 16)
    }

    /// `{sentence, prefix, habit, habitPath, time, id}` for the templates.
    var templateValue: TemplateValue {
        [
            "sentence": .text(sentence), "prefix": .text(prefix), "habit": .text(habit),
            "habitPath": habit.isEmpty ? .null : .text(Links.habit(habit)), "time": time.templateValue,
            "id": .text(id),
        ]
    }
}
