import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct ClientAddressTests {
    static let proxies = [AddressRange("10.0.0.0/8")!, AddressRange("::1")!]

    func resolve(_ peer: String?, _ forwarded: [String], trusted: [AddressRange] = proxies) -> String? {
        ClientAddress.resolve(peer: peer.flatMap { IPAddress($0) }, forwardedFor: forwarded, trustedProxies: trusted)?
            .description
    }

    @Test func withoutTrustedProxiesThePeerIsTheClient() {
        #expect(resolve("192.0.2.7:5000", ["198.51.100.1"], trusted: []) == "192.0.2.7")
        #expect(resolve("[2001:db8::1]:5000", []) == "2001:db8::1")
    }

    /// Anyone can send X-Forwarded-For; from a peer that is not a configured proxy it is ignored.
    @Test func anUntrustedPeersForwardedForIsIgnored() {
        #expect(resolve("192.0.2.7:5000", ["198.51.100.1"]) == "192.0.2.7")
        #expect(resolve("192.0.2.7:5000", ["10.0.0.1"]) == "192.0.2.7")
    }

    @Test func aTrustedProxysForwardedForNamesTheClient() {
        #expect(resolve("10.1.2.3:5000", ["198.51.100.1"]) == "198.51.100.1")
        #expect(resolve("[::1]:5000", ["198.51.100.1"]) == "198.51.100.1")
    }

    /// The client can put anything on the left; only the right-most untrusted entry was written by a proxy.
    @Test func theRightMostUntrustedEntryWinsOverWhatTheClientSent() {
        #expect(resolve("10.1.2.3:5000", ["1.1.1.1, 2.2.2.2, 198.51.100.1"]) == "198.51.100.1")
        #expect(resolve("10.1.2.3:5000", ["1.1.1.1, 198.51.100.1, 10.9.9.9"]) == "198.51.100.1")
        #expect(resolve("10.1.2.3:5000", ["1.1.1.1", "198.51.100.1, 10.9.9.9"]) == "198.51.100.1")
    }

    @Test func portsAndBracketsInEntriesAreUnderstood() {
        #expect(resolve("10.1.2.3:5000", ["198.51.100.1:4711"]) == "198.51.100.1")
        #expect(resolve("10.1.2.3:5000", ["[2001:db8::9]:4711"]) == "2001:db8::9")
        #expect(resolve("10.1.2.3:5000", [" 2001:db8::9 "]) == "2001:db8::9")
    }

    @Test func junkFromAProxyCountsAsTheProxyItself() {
        #expect(resolve("10.1.2.3:5000", ["198.51.100.1, unknown"]) == "10.1.2.3")
        #expect(resolve("10.1.2.3:5000", ["<script>"]) == "10.1.2.3")
    }

    @Test func aChainOfOnlyTrustedProxiesGivesTheFarthestOne() {
        #expect(resolve("10.1.2.3:5000", ["10.7.7.7, 10.8.8.8"]) == "10.7.7.7")
        #expect(resolve("10.1.2.3:5000", []) == "10.1.2.3")
    }

    @Test func anUnknownPeerHasNoAddress() {
        #expect(resolve(nil, ["198.51.100.1"]) == nil)
        #expect(resolve("unknown", ["198.51.100.1"]) == nil)
    }

    /// IPv6 clients are counted per /64 (one subscriber's usual allocation); IPv4 per address.
    @Test func limitKeysGroupAnIPv6SubscribersWholeSlash64() {
        #expect(IPAddress("2001:db8:1:2:aaaa::1")?.clientKey == "2001:db8:1:2::/64")
        #expect(IPAddress("2001:db8:1:2:bbbb::7")?.clientKey == "2001:db8:1:2::/64")
        #expect(IPAddress("192.0.2.7")?.clientKey == "192.0.2.7")
        #expect(IPAddress("::ffff:192.0.2.7")?.clientKey == "192.0.2.7")
    }
}
