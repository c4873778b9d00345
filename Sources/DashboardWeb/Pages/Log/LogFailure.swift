import DashboardCore
import HabitsAPI

/// Why logging a habit failed, carried in the redirect after `POST /log` as a code (never as free text, so a link
/// cannot make the page say anything) and worded plainly on `/log`.
struct LogFailure: Equatable {
    /// The kinds of failure.
    enum Code: String {
        /// The upstream could not be reached or failed (5xx, timeout).
        case unavailable
        /// The upstream answered 4xx: it refused this habit.
        case refused
    }

    /// What went wrong.
    var code: Code
    /// The habit, when it is one that exists.
    var habitName: String?

    /// The failure for the query's `error` and `habit`, naming the habit only if it exists; nil for a code the
    /// dashboard never sends, so a made-up link cannot make the page say something untrue.
    init?(code: String, habitName: String?, habits: [String: Habit]) {
        guard let code = Code(rawValue: code) else { return nil }
        self.code = code
        self.habitName = habitName.flatMap { habits[$0] == nil ? nil : $0 }
    }

    /// The plain message shown on `/log`.
    var message: String {
        let habit = habitName.map { "“\($0)”" } ?? "that habit"
        switch code {
        case .unavailable:
            return "Could not log \(habit): the Habits service is not answering. Nothing was saved; please try again."
        case .refused:
            return "The Habits service refused to log \(habit). Nothing was saved."
        }
    }
}
