import TemplateKit

extension PeoplePage {
    /// The value of `Templates/people.html`; `returnTo` is this page's URL with its filter, for the follow buttons.
    public func templateFields(returnTo: String) -> [String: TemplateValue] {
        [
            "returnTo": .text(returnTo),
            "query": .text(query),
            "followedOnly": .bool(followedOnly),
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
        ]
    }
}
