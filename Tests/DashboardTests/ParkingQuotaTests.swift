import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The parked places' fair share (issue 23): no address holds more than a sixteenth of them.
@Suite struct ParkingQuotaTests {
    /// How many of `count` claims for `address` succeed.
    func claims(_ quota: inout ParkingQuota, _ address: String, _ count: Int) -> Int {
        (0..<count).filter { _ in quota.claim(address) }.count
    }

    /// A quota of `capacity` places with the default share.
    func quota(_ capacity: Int, perClient: Int? = nil) -> ParkingQuota {
        var limits = ParkingLimits()
        limits.capacity = capacity
        limits.perClient = perClient
        return ParkingQuota(limits)
    }

    @Test func anAddressGetsAtMostItsShare() {
        var quota = quota(512)
        #expect(quota.share == 32)
        #expect(claims(&quota, "127.0.0.10", 100) == 32)
        #expect(claims(&quota, "127.0.0.200", 1) == 1)
        #expect(quota.total == 33)
    }

    /// Two (or fifteen) addresses cannot take every place: a sixteenth still finds its share.
    @Test func fifteenGreedyAddressesLeaveAShareForEveryoneElse() {
        var quota = quota(512)
        for attacker in 0..<15 { _ = claims(&quota, "10.0.0.\(attacker)", 1000) }
        #expect(quota.total == 480)
        #expect(claims(&quota, "127.0.0.200", 32) == 32)
        #expect(claims(&quota, "127.0.0.201", 1) == 0)
    }

    @Test func aReleasedPlaceCanBeClaimedAgain() {
        var quota = quota(16)
        #expect(quota.share == 1)
        #expect(claims(&quota, "a", 2) == 1)
        quota.release("a")
        #expect(quota.held["a"] == nil)
        #expect(claims(&quota, "a", 1) == 1)
        quota.release("b")  // never claimed: nothing changes
        #expect(quota.total == 1)
    }

    @Test func aTinyCapacityStillGivesEachAddressOnePlace() {
        var quota = quota(2)
        #expect(claims(&quota, "a", 1) == 1)
        #expect(claims(&quota, "b", 1) == 1)
        #expect(claims(&quota, "c", 1) == 0)
    }

    /// The defaults are sized for 50 000 live viewers (issue 46), and the share is still a sixteenth.
    @Test func theDefaultsHoldFiftyThousandViewersFromSixteenAddressesOrMore() {
        let limits = ParkingLimits()
        #expect(limits.capacity == 64_000)
        #expect(limits.share == 4_000)
        var quota = ParkingQuota(limits)
        for address in 0..<256 { #expect(claims(&quota, "10.0.\(address).1", 196) == 196) }
        #expect(quota.total == 50_176)
    }

    @Test func theShareCanBeSetApartFromTheCapacity() {
        var quota = quota(512, perClient: 100)
        #expect(quota.share == 100)
        #expect(claims(&quota, "a", 200) == 100)
        #expect(claims(&quota, "b", 1) == 1)
    }
}
