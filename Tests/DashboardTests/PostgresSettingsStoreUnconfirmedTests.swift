import Foundation
import Postgres
import TestSupport
import Testing

@testable import DashboardCore

/// A change whose `COMMIT` was sent and never answered may have been saved, so its 503 must not say nothing was
/// (issue 49 point 2: a partition in the namespace cluster cut a dashboard off mid-commit, and the change it had
/// answered "nothing was saved" was in the database).
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct PostgresSettingsStoreUnconfirmedTests {
    @Test(.timeLimit(.minutes(2)))
    func aChangeWhoseCommitGoesUnansweredSaysItMayHaveBeenSaved() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let one = try await PostgresSettingsStoreTests.dashboard(url, timeout: .seconds(60))
        defer { one.close() }
        for sql in ThrowawayPostgres.dieDuringTheFirstCommit(on: "browser_settings", events: "INSERT OR UPDATE") {
            _ = try await one.database.pool.run(Statement(sql, idempotent: false))
        }
        let id = BrowserID.random()
        await #expect {
            try await one.store.update(id) { $0.toggleFollow("u1") }
        } throws: { error in
            guard let error = error as? SettingsUnavailable, error.unconfirmed else { return false }
            return !error.publicMessage.contains("nothing was saved") && error.publicMessage.contains("may or may not")
        }
        // The next change goes through, on top of what the database holds (here: the first was not committed).
        try await one.store.update(id) { $0.toggleFollow("u2") }
        #expect(try await one.store.loadVersioned(id).value.followedUserIDs == ["u2"])
    }
}
