import Foundation

extension TimeText {
    /// A moment as a time of day, "02:10" in `timeZone`, after its day ("Mon 30 Nov, 02:10") when it is not the day
    /// of `reference`: how a chart says where its recorded span starts ("since 02:10"). The same words go into the
    /// visible text and the accessible label, so no script rewrites them.
    public static func clock(_ second: Int, sameDayAs reference: Int, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: TimeInterval(second))
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let time = [parts.hour ?? 0, parts.minute ?? 0].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
        guard !calendar.isDate(date, inSameDayAs: Date(timeIntervalSince1970: TimeInterval(reference))) else {
            return time
        }
        var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: Locale(identifier: "en_GB"))
        style.timeZone = timeZone
        return date.formatted(style.weekday(.abbreviated).day().month(.abbreviated)) + ", " + time
    }
}
