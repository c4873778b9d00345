import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Which settings read from the database are kept in memory, decided by the versions announced while they ran.
struct SettingsReadAdmissionTests {
    let id = BrowserID.random()

    @Test func aReadWithNoNotificationMeanwhileIsKept() {
        var admission = SettingsReadAdmission()
        let ticket = admission.begin(id)
        let kept1 = admission.end(ticket, version: 3)
        #expect(kept1)
        #expect(admission.readsInFlight == 0)
    }

    @Test func aReadThatAlreadyHoldsTheAnnouncedVersionIsKept() {
        // The race after a change through another dashboard: its notification arrives while this read is running.
        var admission = SettingsReadAdmission()
        let ticket = admission.begin(id)
        admission.announced(id, version: 2)
        let kept2 = admission.end(ticket, version: 2)
        #expect(kept2)
    }

    @Test func aReadOvertakenByANewerVersionIsNotKept() {
        var admission = SettingsReadAdmission()
        let ticket = admission.begin(id)
        admission.announced(id, version: 5)
        let kept3 = admission.end(ticket, version: 4)
        #expect(!kept3)
    }

    @Test func aBrowserWithNoRowReadBeforeItsFirstChangeIsNotKept() {
        var admission = SettingsReadAdmission()
        let ticket = admission.begin(id)
        admission.announced(id, version: 1)
        let kept4 = admission.end(ticket, version: 0)
        #expect(!kept4)
    }

    @Test func aNotificationForAnotherBrowserDoesNotKeepAReadOut() {
        var admission = SettingsReadAdmission()
        let ticket = admission.begin(id)
        admission.announced(BrowserID.random(), version: 9)
        let kept5 = admission.end(ticket, version: 1)
        #expect(kept5)
    }

    @Test func aNotificationWithNoReadInFlightIsNotRemembered() {
        var admission = SettingsReadAdmission()
        admission.announced(id, version: 7)
        let ticket = admission.begin(id)
        let kept6 = admission.end(ticket, version: 1)
        #expect(kept6)
    }

    @Test func readsThatStartedBeforeEveryCopyWasDroppedAreNotKept() {
        var admission = SettingsReadAdmission()
        let before = admission.begin(id)
        admission.dropAll()
        let after = admission.begin(id)
        let kept7 = admission.end(before, version: 1)
        #expect(!kept7)
        let kept8 = admission.end(after, version: 1)
        #expect(kept8)
    }

    @Test func twoReadsOfOneBrowserShareWhatWasAnnouncedUntilBothEnd() {
        var admission = SettingsReadAdmission()
        let first = admission.begin(id)
        let second = admission.begin(id)
        admission.announced(id, version: 3)
        let kept9 = admission.end(first, version: 2)
        #expect(!kept9)
        #expect(admission.readsInFlight == 1)
        let kept10 = admission.end(second, version: 3)
        #expect(kept10)
        #expect(admission.readsInFlight == 0)
    }
}
