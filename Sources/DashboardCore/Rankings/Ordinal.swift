/// English ordinals for ranks: 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd … 101st, 111th, 112th.
public enum Ordinal {
    /// The ordinal of `number`; the teens (11–13 of every hundred) take "th".
    public static func string(_ number: Int) -> String {
        let lastTwo = abs(number) % 100
        let suffix: String
        if (11...13).contains(lastTwo) {
            suffix = "th"
        } else {
            switch lastTwo % 10 {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(number)\(suffix)"
    }
}
