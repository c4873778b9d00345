import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct AddressRangeTests {
    @Test(arguments: ["10.0.0.1", "10.0.0.0/8", "0.0.0.0/0", "::1", "2001:db8::/32", "fd00::/8"])
    func validRangesParseAndPrintAsGiven(text: String) throws {
        #expect(try #require(AddressRange(text)).description == text)
    }

    @Test(arguments: [
        "", "10.0.0.1/33", "10.0.0.1/8", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/8/8", "::1/129", "[::1]", "10.0.0.1:80",
        "localhost", "10.0.0", "::ffff:10.0.0.1", "10.0.0.0/+8",
    ])
    func invalidRangesAreRefused(text: String) {
        #expect(AddressRange(text) == nil)
    }

    @Test func containsFollowsThePrefix() throws {
        let block = try #require(AddressRange("10.0.0.0/8"))
        #expect(block.contains(try #require(IPAddress("10.255.1.2"))))
        #expect(!block.contains(try #require(IPAddress("11.0.0.1"))))
        let v6 = try #require(AddressRange("2001:db8::/32"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db9::1"))))
        #expect(!v6.contains(try #require(IPAddress("10.0.0.1"))))
    }

    @Test func aCommaListParsesEveryItemOrNothing() {
        #expect(AddressRange.list("10.0.0.1, ::1")?.map(\.description) == ["10.0.0.1", "::1"])
        #expect(AddressRange.list("10.0.0.1,,::1") == nil)
        #expect(AddressRange.list("10.0.0.1,nope") == nil)
    }
}
