import DashboardCore
import HabitsAPI

/// `/colors.css`: one rule per colour the current data uses (categories, users, favourites, the neutral grey).
public enum ColorStylesheet {
    /// The stylesheet for these users and categories, rules sorted so the bytes (and so the ETag) are stable.
    public static func css(users: some Sequence<User>, categories: some Sequence<Category>) -> String {
        var styles: Set<String> = []
        var rules: [String: String] = [:]
        func add(_ style: ColorStyle) {
            if styles.insert(style.className).inserted { rules[style.className] = style.cssRules }
        }
        add(.favorite)
        add(.neutral)
        for user in users { add(ColorStyle(user.color)) }
        for category in categories { add(ColorStyle(category.color)) }
        return "/* Generated from the Habits API colours; see ColorStyle+CSS.swift. */\n"
            + rules.keys.sorted().map { rules[$0]! }.joined(separator: "\n") + "\n"
    }
}
