import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct LogFailureTests {
    @Test func namesOnlyHabitsThatExist() {
        #expect(
            LogFailure(code: "refused", habitName: "Yoga", habits: Fixture.habits)?.message.contains("“Yoga”") == true)
        #expect(
            LogFailure(code: "refused", habitName: "Send money to x", habits: Fixture.habits)?.message
                == "The Habits service refused to log that habit. Nothing was saved.")
    }

    @Test func aCodeTheDashboardNeverSendsSaysNothing() {
        #expect(LogFailure(code: "<b>", habitName: nil, habits: [:]) == nil)
        #expect(LogFailure(code: "missing", habitName: nil, habits: [:]) == nil)
        #expect(LogFailure(code: "unavailable", habitName: nil, habits: [:])?.code == .unavailable)
    }
}
