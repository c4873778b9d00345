import HabitsAPI

/// A network of any size made up from a seed (issue 21 point 4: `habits-api --users N --habits M --seed S`), to see
/// how the dashboard's costs grow with the data. The same seed gives the same data set, byte for byte.
///
/// Names are plausible and unique: first and last names from lists shuffled by the seed, combined, then with a middle
/// initial once the combinations run out. A few names carry markup, quotes and bidi controls, so escaping is tested
/// at every scale. Habits are an activity with a time or manner ("Evening yoga") in the built-in data's categories.
/// Each person takes up a handful of habits, popular ones more often (`ActivityModel.fewHabitsEach`), so at a
/// hundred times the built-in data a popular habit has thousands of people and a person a page of habits.
public enum GeneratedData {
    /// A data set of `users` people (plus the active user) and `habits` habits, from `seed`.
    public static func dataSet(users: Int, habits: Int, seed: UInt64) -> DataSet {
        var generator = SeededGenerator(seed: seed ^ 0x6E65_7477_6F72_6B00)  // "network": apart from the rates' draws
        let firsts = shuffled(firstNames, &generator)
        let lasts = shuffled(lastNames, &generator)
        let people = (0..<max(0, users)).map { index in
            User(
                id: "user\(index)", name: name(index, firsts, lasts), color: color(&generator),
                bio: generator.nextUnit() < 0.15 ? nil : bio(&generator))
        }
        let categories = BuiltInCategories.all
        let habitList = (0..<max(0, habits)).map { index in habit(index, categories: categories) }
        return DataSet(
            users: people, activeUser: User(id: User.activeUserID, name: "Active User"), categories: categories,
            habits: habitList, activity: .fewHabitsEach(2...12))
    }

    /// Names with markup, quotes, an ampersand and bidi controls (U+202E, U+2067), placed among the first hundred.
    static let awkwardNames = [
        "Ada <b>Bold</b> Lovelace", "Sam \"Quotes\" O'Brien & Co", "Mira \u{202E}ztiro\u{202C} Ortiz",
        "Noor \u{2067}نور\u{2069} Haddad", "Zoë <script>alert(1)</script> Weiß",
    ]

    /// The `index`th name: an awkward one at positions 7, 27, 47…, else first and last name, with a middle initial
    /// (and then two) once every pair is taken, so names stay unique up to millions of people.
    static func name(_ index: Int, _ firsts: [String], _ lasts: [String]) -> String {
        if index % 20 == 7, index / 20 < awkwardNames.count { return awkwardNames[index / 20] }
        let pairs = firsts.count * lasts.count
        let first = firsts[index % firsts.count]
        let last = lasts[(index / firsts.count) % lasts.count]
        let round = index / pairs
        guard round > 0 else { return first + " " + last }
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let initials =
            round <= 26
            ? "\(letters[round - 1])." : "\(letters[(round - 27) / 26 % 26]). \(letters[(round - 27) % 26])."
        return first + " " + initials + " " + last
    }

    private static func color(_ generator: inout SeededGenerator) -> Color {
        let hue = (generator.nextUnit() * 1000).rounded() / 1000
        let saturation = (0.35 + 0.4 * generator.nextUnit()) * 1000
        let brightness = (0.6 + 0.35 * generator.nextUnit()) * 1000
        return Color(hue: hue, saturation: saturation.rounded() / 1000, brightness: brightness.rounded() / 1000)
    }

    private static func bio(_ generator: inout SeededGenerator) -> String {
        let work = occupations[Int(generator.next() % UInt64(occupations.count))]
        let hobby = hobbies[Int(generator.next() % UInt64(hobbies.count))]
        return "\(work) who \(hobby)."
    }

    /// The `index`th habit: the activities alone first, then each with a time or manner, then numbered.
    static func habit(_ index: Int, categories: [Category]) -> Habit {
        let (activity, categoryIndex, tip) = activities[index % activities.count]
        let round = index / activities.count
        let name: String
        if round == 0 {
            name = activity
        } else if round <= manners.count {
            name = manners[round - 1] + " " + activity.lowercased()
        } else {
            name = activity + " \(round - manners.count + 1)"
        }
        return Habit(name: name, category: categories[categoryIndex], info: tip)
    }

    private static func shuffled(_ names: [String], _ generator: inout SeededGenerator) -> [String] {
        var names = names
        guard names.count > 1 else { return names }
        for index in stride(from: names.count - 1, to: 0, by: -1) {
            names.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return names
    }
}
