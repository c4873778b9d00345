import DashboardCore
import TemplateKit

extension PersonDetailPage {
    /// The static part of `Templates/person.html` (the live region is added by the handler).
    public var templateFields: TemplateObject {
        [
            "name": .text(name),
            "path": .text(path),
            "followPath": .text(Links.personFollow(userID)),
            "imagePath": .text(imagePath),
            "bio": TemplateValue(bio),
            "colorClass": .text(color.className),
            "isFollowed": .bool(isFollowed),
            "isActiveUser": .bool(isActiveUser),
            "returnTo": .text(path),
            "ranges": HistoryRange.links(path: path, current: range),
            "elementID": .text(Links.elementID(person: userID)),
        ]
    }

    /// The value of `Templates/fragments/person.html`: Leading, then a section per category, with count bars.
    public func fragmentValue(stale: StaleNotice?, now: Int? = nil) -> TemplateValue {
        let top = max(1, (leading + categories.flatMap(\.habits)).map(\.count).max() ?? 1)
        return [
            "stale": stale?.templateValue ?? .null,
            "name": .text(name),
            "chart": trend.chartValue(now: now ?? trend?.lastSecond ?? 0),
            "rangeTitle": .text(range.title),
            "hasLeading": .bool(!leading.isEmpty),
            "leading": .list(leading.map { $0.templateValue(top: top) }),
            "categories": .list(
                categories.enumerated().map { index, section in
                    [
                        "id": .text("section-\(index)"),
                        "title": .text(section.title),
                        "colorClass": .text(section.color.className),
                        "habits": .list(section.habits.map { $0.templateValue(top: top) }),
                    ]
                }),
            "hasNothing": .bool(leading.isEmpty && categories.isEmpty),
        ]
    }
}

extension HabitCountRow {
    /// One habit with the user's count and a bar relative to `top`, the user's highest count.
    func templateValue(top: Int) -> TemplateValue {
        [
            "name": .text(name),
            "path": .text(path),
            "count": .int(count),
            "percent": .int(Int((Double(count) / Double(top) * 100).rounded())),
            "key": .text(Links.elementID(habit: name)),
        ]
    }
}

extension PersonDetailPage {
    /// `/people/<id>` (`Templates/person.html`): counts and the history's slot, and only whether this person is
    /// followed (its button).
    static let declaration = PageDeclaration(LivePage.person.page, data: .trend, reads: .itemIsFollowed)
    /// Its fragment (`Templates/fragments/person.html`): no settings, so one rendering serves every browser.
    static let fragmentDeclaration = PageDeclaration(fragmentOf: .person, data: .trend, reads: .nothing)
}
