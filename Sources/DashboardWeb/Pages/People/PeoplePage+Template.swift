import DashboardCore
import TemplateKit

extension PeoplePage {
    /// The value of `Templates/people.html`; `listPath` is the list's URL with its filter and sort but not its page
    /// (the navigation links add theirs). The cards come from `renderer`'s card cache, rendered only when new.
    public func templateFields(listPath: String, renderer: PageRenderer) throws -> TemplateObject {
        let returnTo = self.returnTo(listPath: listPath)
        let sort = self.sort
        var fields = skeletonFields(listPath: listPath)
        // Fixed words and a number: nothing in it to escape, and a composed page puts it in as it is.
        fields["youFollow"] = .trustedHTML(youFollow)
        fields["cards"] = try renderer.cards(
            people, template: "partials/person-card", key: { .person($0, returnTo: returnTo, sort: sort) },
            value: { $0.templateValue(returnTo: returnTo, sort: sort) })
        return fields
    }

    /// Where the page's forms return.
    func returnTo(listPath: String) -> String { Pager.url(listPath, page: pager?.number ?? 1) }

    /// The fields of the page but its cards and "you follow N" (a composed page's places, issue 46 point 1): shared
    /// by every browser when the page is not `followedOnly`.
    func skeletonFields(listPath: String) -> TemplateObject {
        let sort = self.sort
        return [
            "returnTo": .text(returnTo(listPath: listPath)),
            "query": .text(query),
            "followedOnly": .bool(followedOnly),
            "sorts": .list(
                PeopleSort.allCases.map { option in
                    ["value": .text(option.rawValue), "label": .text(option.label), "selected": .bool(option == sort)]
                }),
            "sortedByActivity": .bool(sort == .activity),
            "sortedByLeading": .bool(sort == .leading),
            "summary": .text(listSummary),
            "emptyMessage": .text(
                followedOnly && followedCount == 0
                    ? "You don't follow anyone yet. Press Follow on a person to see them here."
                    : "Nobody matches this filter."),
            "people": .bool(!people.isEmpty),
            "pager": pager?.templateValue(label: "Pages of people") { Pager.url(listPath, page: $0) } ?? .null,
        ]
    }

    /// "Showing 41 of 41 people; you follow 5." (one page), "Showing 101–200 of 4100 people; you follow 5." (a page
    /// of many), "Showing 1–100 of 350 matching people, 4100 in all; you follow 5." (a filtered page of many).
    public var summary: String { listSummary + youFollow }

    /// The summary but how many the browser follows: the same for every browser unless the page is `followedOnly`.
    var listSummary: String {
        guard let pager, pager.isPaged else { return "Showing \(matchCount) of \(totalCount) people" }
        let shown = "Showing \(pager.range.lowerBound + 1)–\(pager.range.upperBound) of \(matchCount)"
        return matchCount == totalCount ? shown + " people" : shown + " matching people, \(totalCount) in all"
    }

    /// The end of the summary: "; you follow 5.".
    var youFollow: String { Self.youFollow(followedCount) }

    /// The end of a summary when the browser follows `count` people.
    static func youFollow(_ count: Int) -> String { "; you follow \(count)." }

    /// The cards of the page both ways, followed and not, by person (a composed page's choices, issue 46 point 1);
    /// `returnTo` is where their forms return.
    func choices(returnTo: String, renderer: PageRenderer) throws -> ChoiceTable {
        let sort = self.sort
        func chunk(_ card: PersonCard) throws -> Chunk {
            try renderer.chunk(.person(card, returnTo: returnTo, sort: sort), template: "partials/person-card") {
                card.templateValue(returnTo: returnTo, sort: sort)
            }
        }
        var plain: [Chunk] = []
        var chosen: [Chunk] = []
        var positions: [String: Int] = [:]
        for (position, card) in people.enumerated() {
            var card = card
            card.isFollowed = false
            plain.append(try chunk(card))
            card.isFollowed = true
            chosen.append(try chunk(card))
            positions[card.userID] = position
        }
        return ChoiceTable(plain: plain, chosen: chosen, positions: positions)
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

    /// What every browser's `/people` in `sort` order shares when not `followedOnly`: all but the follows.
    static func skeletonDeclaration(sort: PeopleSort) -> PageDeclaration {
        PageDeclaration(.people, data: sort == .name ? .reference : .statistics, reads: .nothing)
    }
}
