import Foundation
import HTTPCore
import HTTPServer
import HabitsAPI
import TemplateKit
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Logging a habit through the form: posted for the active user and confirmed, and an upstream failure or refusal said
/// plainly.
extension DashboardAppTests {
    @Test func loggingAHabitPostsItForTheActiveUserAndConfirms() async throws {
        let response = try await post("/log", form: "habit=Push-ups%2FSit-ups")
        #expect(response.status == .seeOther)
        // The redirect returns to the habit's button (issue 10: keep your place without JavaScript).
        #expect(
            response.headers["Location"]
                == "/log?logged=Push-ups%2FSit-ups&from=0#" + Links.elementID(habit: "Push-ups/Sit-ups"))
        #expect(
            api.logged == [
                LoggedHabit(
                    userID: "activeUser", habitName: "Push-ups/Sit-ups",
                    timestamp: Date(timeIntervalSince1970: 1_800_000_000))
            ])
        let page = html(try await get("/log?logged=Push-ups%2FSit-ups"))
        #expect(page.contains(#"Logged <a href="/habits/Push-ups%2FSit-ups">Push-ups/Sit-ups</a>"#))
        #expect(page.contains(#"id="\#(Links.elementID(habit: "Push-ups/Sit-ups"))""#))
        let habit = html(try await get("/habits/Push-ups%2FSit-ups"))
        #expect(habit.contains(#"href="/people/activeUser">Active User</a>"#))
    }

    @Test func confirmationOnlyNamesHabitsThatExist() async throws {
        let page = html(try await get("/log?logged=Free%20money"))
        #expect(!page.contains("Free money"))
        #expect(!page.contains("notice-success"))
    }

    @Test func upstreamFailureWhileLoggingSaysSoPlainly() async throws {
        _ = try await get("/log")
        api.fail(with: .transport("timed out"))
        let response = try await post("/log", form: "habit=Yoga")
        #expect(response.headers["Location"] == "/log?error=unavailable&habit=Yoga")
        api.fail(with: nil)
        let page = html(try await get("/log?error=unavailable&habit=Yoga"))
        #expect(page.contains("Could not log “Yoga”: the Habits service is not answering. Nothing was saved"))
    }

    @Test func aHabitTheServiceRefusesIsReportedAsRefused() async throws {
        _ = try await get("/log")
        api.fail(with: .status(422, path: "/loggedHabit"))
        let response = try await post("/log", form: "habit=Yoga")
        #expect(response.headers["Location"] == "/log?error=refused&habit=Yoga")
        api.fail(with: nil)
        let page = html(try await get("/log?error=refused&habit=Yoga"))
        #expect(page.contains("The Habits service refused to log “Yoga”. Nothing was saved."))
        let unknown = html(try await get("/log?error=refused&habit=Unknown"))
        #expect(unknown.contains("The Habits service refused to log that habit. Nothing was saved."))
    }

    /// Issue 47 point 4: a habit the data does not have is refused here, before anything goes upstream, with a 404
    /// that names it (it used to be sent upstream and worded as "the Habits service is not answering").
    @Test func loggingAHabitThatDoesNotExistIsA404NamingItAndSendsNothingUpstream() async throws {
        let response = try await post("/log", form: "habit=Free%20%3Cb%3Emoney%3C%2Fb%3E")
        #expect(response.status == .notFound)
        let page = html(response)
        #expect(page.contains("There is no habit called “Free &lt;b&gt;money&lt;/b&gt;” to log. Nothing was logged."))
        #expect(api.logged.isEmpty)
        #expect(api.calls[.logHabit] == nil)
    }

    @Test(arguments: ["", "habit=", "page=2", "habits=Yoga"])
    func aLogFormNamingNoHabitIsA400AndSendsNothingUpstream(form: String) async throws {
        let response = try await post("/log", form: form)
        #expect(response.status == .badRequest)
        #expect(html(response).contains("The form named no habit to log. Nothing was logged."))
        #expect(api.calls[.logHabit] == nil)
    }

    @Test func getNeverChangesState() async throws {
        _ = try await get("/log?habit=Yoga")
        _ = try await get("/habits/Yoga/favorite")
        #expect(api.logged.isEmpty)
        #expect(try settingsFiles().isEmpty)
    }
}
