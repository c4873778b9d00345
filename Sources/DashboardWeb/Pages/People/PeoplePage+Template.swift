import DashboardCore
import TemplateKit

extension PeoplePage {
    /// The value of `Templates/people.html`; `listPath` is the list's URL with its filter and sort but not its page
    /// (the navigation links add theirs). The cards come from `renderer`'s card cache, rendered only when new.
    public func templateFields(listPath: String, renderer: PageRenderer) throws -> TemplateObject {
        let returnTo = Pager.url(listPath, page: pager?.number ?? 1)
        let sort = self.sort
        return [
            "returnTo": .text(returnTo),
            "query": .text(query),
            "followedOnly": .bool(followedOnly),
            "sorts": .list(
                PeopleSort.allCases.map { option in
                    ["value": .text(option.rawValue), "label": .text(option.label), "selected": .bool(option == sort)]
                }),
            "sortedByActivity": .bool(sort == .activity),
            "sortedByLeading": .bool(sort == .leading),
            "summary": .text(summary),
            "emptyMessage": .text(
                followedOnly && followedCount == 0
                    ? "You don't follow anyone yet. Press Follow on a person to see them here."
                    : "Nobody matches this filter."),
            "people": .bool(!people.isEmpty),
            "cards": try renderer.cards(
                people, template: "partials/person-card", key: { .person($0, returnTo: returnTo, sort: sort) },
                value: { $0.templateValue(returnTo: returnTo, sort: sort) }),
            "pager": pager?.templateValue(label: "Pages of people") { Pager.url(listPath, page: $0) } ?? .null,
        ]
    }

    /// "Showing 41 of 41 people; you follow 5." (one page), "Showing 101–200 of 4100 people; you follow 5." (a page
    /// of many), "Showing 1–100 of 350 matching people, 4100 in all; you follow 5." (a filtered page of many).
    public var summary: String {
        let follow = "; you follow \(followedCount)."
        guard let pager, pager.isPaged else { return "Showing \(matchCount) of \(totalCount) people" + follow }
        let shown = "Showing \(pager.range.lowerBound + 1)–\(pager.range.upperBound) of \(matchCount)"
        return matchCount == totalCount
            ? shown + " people" + follow : shown + " matching people, \(totalCount) in all" + follow
    }
}

extension PersonCard {
    /// One card of the people grid (`Templates/partials/person-card.html`), with the page's fields it reads.
    func templateValue(returnTo: String, sort: PeopleSort) -> TemplateValue {
        [
            "returnTo": .text(returnTo),
            "sortedByActivity": .bool(sort == .activity),
            "sortedByLeading": .bool(sort == .leading),
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
