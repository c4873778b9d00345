import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The one SHA-256 wrapper gives the standard digest (FIPS 180-2's "abc" example), and its words are read big-endian.
@Suite struct SHA256HashTests {
    @Test func theDigestOfABCIsTheStandardOnesAndItsWordsAreBigEndian() {
        let digest = SHA256Hash.of(Array("abc".utf8))
        #expect(digest.count == 32)
        #expect(SHA256Hash.word(digest, 0) == 0xba78_16bf_8f01_cfea)
        #expect(SHA256Hash.word(digest, 3) == 0xb410_ff61_f200_15ad)
        #expect(SettingsDigest.of(Array("abc".utf8)) == 0xba78_16bf_8f01_cfea)
    }
}
