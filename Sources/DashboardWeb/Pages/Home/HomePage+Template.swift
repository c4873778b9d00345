import DashboardCore
import TemplateKit

extension HomePage {
    /// The static part of `Templates/home.html`: "since your last visit" (issue 22) as rendered (empty when not
    /// shown).
    public static func pageFields(sinceLastVisit: String = "") -> TemplateObject {
        ["sinceLastVisit": .trustedHTML(sinceLastVisit)]
    }

    /// The value of `Templates/fragments/home.html`, the live part of Home. Its leaderboard cards and Following rows
    /// are rendered one by one and kept by content in `renderer`'s card cache, so a new version re-renders only the
    /// cards that changed.
    public func fragmentValue(stale: StaleNotice?, renderer: PageRenderer) throws -> TemplateValue {
        var fields = fragmentFields(stale: stale)
        fields["leaderboardCards"] = try renderer.cards(
            leaderboard, template: "partials/leaderboard-card", key: { .leaderboard($0) }, value: \.templateValue)
        fields["followingRows"] = try renderer.cards(
            following, template: "partials/following-row", key: { .following($0) }, value: \.templateValue)
        return .object(fields)
    }

    /// The fields of the fragment but its cards and rows (a composed page's places, issue 46 point 1).
    func fragmentFields(stale: StaleNotice?) -> TemplateObject {
        var fields = Self.composedFragmentFields(
            stale: stale, hasLeaderboard: !leaderboard.isEmpty, hasFollowing: !following.isEmpty)
        fields["happening"] = happeningValue
        return fields
    }

    /// The fields of a fragment with a leaderboard or Following but its cards and rows: what composed fragments share.
    static func composedFragmentFields(stale: StaleNotice?, hasLeaderboard: Bool, hasFollowing: Bool) -> TemplateObject
    {
        [
            "stale": stale?.templateValue ?? .null,
            "showsIntroduction": .bool(!hasLeaderboard && !hasFollowing),
            "happening": .null,
            "hasLeaderboard": .bool(hasLeaderboard),
            "hasFollowing": .bool(hasFollowing),
        ]
    }

    private var happeningValue: TemplateValue {
        happening.map { happening in
            [
                "caption": .text(happening.caption),
                "habits": .list(
                    happening.habits.map { item in
                        [
                            "name": .text(item.name), "path": .text(item.path),
                            "elementID": .text(item.elementID), "trend": .text(happening.trend(item)),
                            "colorClass": .text(item.color.className),
                            "favoritePath": .text(Links.habitFavorite(item.id)), "isFavorite": .bool(item.isChosen),
                            "returnTo": .text("/"),
                        ]
                    }),
                "people": .list(
                    happening.people.map { item in
                        [
                            "name": .text(item.name), "path": .text(item.path),
                            "elementID": .text(item.elementID), "trend": .text(happening.trend(item)),
                            "colorClass": .text(item.color.className),
                            "followPath": .text(Links.personFollow(item.id)), "isFollowed": .bool(item.isChosen),
                            "isActiveUser": .bool(item.isActiveUser), "returnTo": .text("/"),
                        ]
                    }),
            ] as TemplateValue
        } ?? .null
    }
}

extension LeaderboardCard {
    /// One card of the leaderboard.
    var templateValue: TemplateValue {
        [
            "name": .text(habitName),
            "path": .text(habitPath),
            "categoryName": .text(categoryName),
            "colorClass": .text(categoryColor.className),
            "leader": leaderValue,
            "key": .text(Links.elementID(habit: habitName)),
            "second": second?.templateValue ?? .null,
            "trend": trend.templateValue,
            "leaderChange": leaderChange?.templateValue ?? .null,
        ]
    }
}

extension LeaderboardCard {
    /// The leader line: one ranking line, or every tied leader as a link with ", " / " and " between them.
    var leaderValue: TemplateValue {
        guard leaders.count > 1, case .object(var fields) = leader.templateValue else {
            return leader.templateValue
        }
        fields["tied"] = .list(
            leaders.enumerated().map { index, line in
                [
                    "separator": .text(Self.separator(before: index, of: leaders.count)),
                    "name": .text(line.name),
                    "path": TemplateValue(line.userPath ?? line.userID.map(Links.person)),
                ]
            })
        fields["rankText"] = TemplateValue(leaders.first(where: \.isActiveUser)?.rank.map(Ordinal.string))
        return .object(fields)
    }
}

extension RankingLine {
    /// `partials/ranking-line`: every key present, so nothing resolves to an enclosing card's field by accident.
    var templateValue: TemplateValue {
        let isNobody = userID == nil
        return [
            "isNobody": .bool(isNobody),
            "tied": .null,
            "name": .text(name),
            // "You" links to the active user's page too: every person named on a page is a link (SPEC §5).
            "path": TemplateValue(userPath ?? userID.map(Links.person)),
            "count": count.map { .int($0) } ?? .null,
            "rankText": isActiveUser ? TemplateValue(rank.map(Ordinal.string)) : .null,
        ]
    }
}

extension FollowingRow {
    /// One row of the Following section; the habit in the message is a link.
    var templateValue: TemplateValue {
        [
            "name": .text(name),
            "path": .text(userPath),
            "imagePath": .text(Links.image(userID)),
            "colorClass": .text(color.className),
            "messagePrefix": .text(messagePrefix),
            "habitName": TemplateValue(habitName),
            "habitPath": TemplateValue(habitPath),
            "messageSuffix": .text(messageSuffix),
            "moment": moment?.templateValue ?? .null,
            "key": .text(Links.elementID(person: userID)),
        ]
    }
}

extension HomePage {
    /// `/` (`Templates/home.html`): the counts and the history's slot (leaderboards, sparklines, Happening now) and
    /// both the favourites and the follows.
    static let declaration = PageDeclaration(LivePage.home.page, data: .trend, reads: .favoritesAndFollows)
    /// Its fragment (`Templates/fragments/home.html`) reads the same.
    static let fragmentDeclaration = PageDeclaration(fragmentOf: .home, data: .trend, reads: .favoritesAndFollows)
    /// What every browser's page around the fragment shares: the frame (composed per browser, issue 46 point 1).
    static let skeletonDeclaration = PageDeclaration(LivePage.home.page, data: .reference, reads: .nothing)
    /// What every browser's fragment with a leaderboard or Following shares: the sections around the cards.
    static let fragmentSkeletonDeclaration = PageDeclaration(fragmentOf: .home, data: .trend, reads: .nothing)
}
