import TemplateKit

extension PeoplePage {
    /// The value of `Templates/people.html`; `returnTo` is this page's URL with its filter, for the follow buttons.
    public func templateFields(returnTo: String) -> [String: TemplateValue] {
        [
            "returnTo": .text(returnTo),
            "query": .text(query),
            "followedOnly": .bool(followedOnly),
            "sorts": .list(
                PeopleSort.allCases.map { option in
                    ["value": .text(option.rawValue), "label": .text(option.label), "selected": .bool(option == sort)]
                }),
            "sortedByActivity": .bool(sort == .activity),
            "sortedByLeading": .bool(sort == .leading),
            "shownCount": .int(people.count),
            "totalCount": .int(totalCount),
            "followedCount": .int(followedCount),
            "emptyMessage": .text(
                followedOnly && followedCount == 0
                    ? "You don't follow anyone yet. Press Follow on a person to see them here."
                    : "Nobody matches this filter."),
            "people": .list(people.map(\.templateValue)),
        ]
    }
}

extension PersonCard {
    /// One card of the people grid.
    var templateValue: TemplateValue {
        [
            "name": .text(name),
            "path": .text(path),
            "followPath": .text(followPath),
            "imagePath": .text(imagePath),
            "colorClass": .text(color.className),
            "isFollowed": .bool(isFollowed),
            "isActiveUser": .bool(isActiveUser),
            "totalCount": .int(totalCount),
            "leadingCount": .int(leadingCount),
            "elementID": .text(Links.elementID(person: userID)),
        ]
    }
}

extension PeoplePage {
    /// `/people` (`Templates/people.html`) sorted by `sort`: the users (and, sorted by activity or leading, the
    /// counts) and the follows.
    static func declaration(sort: PeopleSort) -> PageDeclaration {
        PageDeclaration(.people, data: sort == .name ? .reference : .statistics, reads: .follows)
    }
}
