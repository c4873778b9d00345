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
    /// When it happened, or for a lead change no longer true when it ended.
    public var time: TimeText
    /// For a lead change no longer true, when it ended ("· until 4 min ago"); nil else.
    public var until: Int?
    /// A stable id (`live.js` announces an id it has not seen).
    public var id: String

    /// The line of `change`, seen from `now` (seconds since 1970). `inHabit: false` leaves the habit out (a card
    /// that is the habit: "Cy Young took the lead"). `until` marks a lead change that ended then (issue 47 point 1):
    /// "Cy Young had the lead in Yoga · until 4 min ago"; its id stays the change's, so it is not announced again.
    public init(_ change: RankChange, now: Int, inHabit: Bool = true, until: Int? = nil) {
        let full = until == nil ? change.sentence : change.endedSentence
        sentence = inHabit ? full : String(full.dropLast(change.habit.count + 4))
        prefix = inHabit ? String(full.dropLast(change.habit.count)) : sentence
        habit = inHabit ? change.habit : ""
        time = TimeText(second: until ?? change.second, now: now)
        self.until = until
        var digest = ContentDigest()
        digest.feed(Int(change.kind.rawValue))
        digest.feed(change.habit)
        digest.feed(change.userID)
        digest.feed(change.second)
        id = "m-" + String(digest.value, radix: 16)
    }

    /// `{sentence, prefix, habit, habitPath, until, time, id}` for the templates.
    public var templateValue: TemplateValue {
        [
            "sentence": .text(sentence), "prefix": .text(prefix), "habit": .text(habit),
            "habitPath": habit.isEmpty ? .null : .text(Links.habit(habit)),
            "until": .text(until == nil ? "" : "until "), "time": time.templateValue,
            "id": .text(id),
        ]
    }
}
