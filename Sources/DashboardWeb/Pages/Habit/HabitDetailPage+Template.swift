import DashboardCore
import TemplateKit

extension HabitDetailPage {
    /// The static part of `Templates/habit.html` (the live region is added by the handler).
    public var templateFields: TemplateObject {
        [
            "name": .text(name),
            "path": .text(path),
            "favoritePath": .text(Links.habitFavorite(name)),
            "categoryName": .text(categoryName),
            "colorClass": .text(categoryColor.className),
            "info": .text(info),
            "isFavorite": .bool(isFavorite),
            "returnTo": .text(path),
            "ranges": HistoryRange.links(path: path, current: range),
            "elementID": .text(Links.elementID(habit: name)),
        ]
    }

    /// The value of `Templates/fragments/habit.html`: the users grouped by tied counts.
    public func fragmentValue(stale: StaleNotice?, now: Int? = nil) -> TemplateValue {
        [
            "stale": stale?.templateValue ?? .null,
            "name": .text(name),
            "chart": trend.chartValue(now: now ?? trend?.lastSecond ?? 0),
            "rangeTitle": .text(range.title),
            "hasGroups": .bool(!groups.isEmpty),
            "groups": .list(groups.enumerated().map { $1.templateValue(id: "group-\($0)") }),
            "pager": pager?.templateValue(label: "Pages of people who logged \(name)") {
                Pager.url(range.url(path), page: $0)
            } ?? .null,
        ]
    }
}

extension CountGroup {
    /// One group of users sharing a count.
    func templateValue(id: String) -> TemplateValue {
        [
            "id": .text(id),
            "title": .text(title),
            "isLeaders": .bool(isLeaders),
            "count": .int(count),
            "timesText": .text(count == 1 ? "1 time" : "\(count) times"),
            "percent": .int(percent),
            "members": .list(
                members.map { member in
                    [
                        "name": .text(member.name),
                        "path": .text(member.path),
                        "imagePath": .text(Links.image(member.userID)),
                        "colorClass": .text(member.color.className),
                        "isActiveUser": .bool(member.isActiveUser),
                        "key": .text(Links.elementID(person: member.userID)),
                    ]
                }),
        ]
    }
}

extension HabitDetailPage {
    /// `/habits/<name>` (`Templates/habit.html`): counts and the history's slot, and only whether this habit is a
    /// favourite (its button).
    static let declaration = PageDeclaration(LivePage.habit.page, data: .trend, reads: .itemIsFavorite)
    /// Its fragment (`Templates/fragments/habit.html`): no settings, so one rendering serves every browser.
    static let fragmentDeclaration = PageDeclaration(fragmentOf: .habit, data: .trend, reads: .nothing)
}
