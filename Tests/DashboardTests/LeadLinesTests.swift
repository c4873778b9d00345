import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Home's leaderboard card and the news as a habit's lead changes hands (issue 47 point 1): a scripted upstream
/// takes Yoga, where Aga Orlova and Brian Mork start tied with 5, through a lead, a tie, a pass and a pass back, a
/// minute apart. After each step the card's line names who leads the card, and every notice is either still true or
/// says until when it was, none twice.
@Suite final class LeadLinesTests: ScriptedSuite {
    let scripted: ScriptedApp

    init() throws { scripted = try ScriptedApp(name: "lead") }

    /// The text of `html` without its tags.
    static func text(_ html: Substring) -> String {
        html.replacing(/<[^>]+>/, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A browser that favours Yoga and has seen Home (so the history has the starting tie), with its visit cookie.
    func browser() async throws -> (settings: String, visit: String) {
        let favorite = try await scripted.post("/habits/Yoga/favorite", "favorite=true&return=/")
        let cookie = String(try #require(favorite.headers["Set-Cookie"]).split(separator: ";")[0])
        let home = try await scripted.get("/", [("Cookie", cookie)])
        let visit = try #require(
            home.headers.values(for: "Set-Cookie").first { $0.hasPrefix(LastVisit.cookieName + "=") })
        return (cookie, String(visit.split(separator: ";")[0]))
    }

    /// A minute later, `userID` logs `count` more Yoga and the store refreshes.
    func step(_ userID: String, _ count: Int) async {
        clock.advance(by: .seconds(60))
        data.logYoga(count, for: userID)
        await snapshots.refreshAfterChange()
    }

    /// Home's Yoga card: its leader line and its lead line (nil without one), as text.
    func card(_ cookie: String) async throws -> (leader: String, line: String?) {
        let home = String(decoding: try await scripted.get("/", [("Cookie", cookie)]).body, as: UTF8.self)
        let card = try #require(home.split(separator: #"<li class="card leader-card""#).dropFirst().first)
        let leader = try #require(card.split(separator: #"<p class="leader-line">"#).dropFirst().first)
        let line = card.split(separator: #"<p class="moment leader-change">"#).dropFirst().first
        return (
            Self.text(try #require(leader.split(separator: "</p>").first)),
            line.flatMap { $0.split(separator: "</p>").first }.map(Self.text)
        )
    }

    /// The news fragment's notices, as text, newest first.
    func notices(_ cookie: String) async throws -> [String] {
        let news = String(decoding: try await scripted.get("/fragments/news", [("Cookie", cookie)]).body, as: UTF8.self)
        return news.components(separatedBy: #"<span class="notice-text">"#).dropFirst().compactMap { notice in
            notice.components(separatedBy: "</span> <button").first.map { Self.text(Substring($0)) }
        }
    }

    @Test func leadTiePassAndPassBackKeepTheCardLineAndTheNoticesTrue() async throws {
        let (cookie, _) = try await browser()
        await step("user0", 1)
        #expect(try await card(cookie) == ("Aga Orlova 6", "Aga Orlova took the lead · just now"))
        #expect(try await notices(cookie) == ["Aga Orlova took the lead in Yoga · just now"])

        await step("user3", 1)
        #expect(
            try await card(cookie) == (
                "Aga Orlova and Brian Mork 6", "Brian Mork tied Aga Orlova for the lead · just now"
            ))
        #expect(
            try await notices(cookie) == [
                "Brian Mork tied Aga Orlova for the lead in Yoga · just now",
                "Aga Orlova took the lead in Yoga · 1 min ago",
            ])

        await step("user3", 1)
        #expect(try await card(cookie) == ("Brian Mork 7", "Brian Mork took the lead · just now"))
        #expect(
            try await notices(cookie) == [
                "Brian Mork took the lead in Yoga · just now", "Aga Orlova had the lead in Yoga · until just now",
            ])

        await step("user0", 2)
        #expect(try await card(cookie) == ("Aga Orlova 8", "Aga Orlova took back the lead · just now"))
        #expect(
            try await notices(cookie) == [
                "Aga Orlova took back the lead in Yoga · just now",
                "Brian Mork had the lead in Yoga · until just now",
            ])
    }

    @Test func aTieReachedTwiceIsOneNoticeAndHomeAfterAnHourSaysTheLatestChange() async throws {
        let (cookie, visit) = try await browser()
        for (person, count) in [("user0", 1), ("user3", 1), ("user0", 1), ("user3", 1)] { await step(person, count) }
        #expect(
            try await card(cookie) == (
                "Aga Orlova and Brian Mork 7", "Brian Mork tied Aga Orlova for the lead · just now"
            ))
        // Brian's first tie ended when Aga pulled ahead again: his second is the one notice of a tie.
        #expect(
            try await notices(cookie) == [
                "Brian Mork tied Aga Orlova for the lead in Yoga · just now",
                "Aga Orlova took back the lead in Yoga · 1 min ago", "Aga Orlova took the lead in Yoga · 3 min ago",
            ])

        clock.advance(by: .seconds(3_600))
        await snapshots.refreshAfterChange()
        let home = String(
            decoding: try await scripted.get("/", [("Cookie", cookie + "; " + visit)]).body, as: UTF8.self)
        #expect(home.contains("Since your last visit"), "\(home)")
        #expect(home.contains(#"<li>Brian Mork tied Aga Orlova for the lead in <a href="/habits/Yoga">Yoga</a> · "#))
        #expect(!home.contains("took back the lead in"), "the latest lead change of each habit only")
    }
}
