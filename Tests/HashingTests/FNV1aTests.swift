import Hashing
import Testing

@Suite struct FNV1aTests {
    /// The published FNV-1a 64 test vectors (draft-eastlake-fnv): a wrong prime, basis or order of XOR and
    /// multiply changes every one of them.
    @Test(arguments: [
        ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
    ])
    func hashesMatchThePublishedVectors(text: String, expected: UInt64) {
        #expect(FNV1a.hash(text.utf8) == expected)
    }

    @Test func feedingInPiecesEqualsHashingAtOnce() {
        var hasher = FNV1a()
        hasher.feed("foo".utf8)
        hasher.feed(byte: UInt8(ascii: "b"))
        hasher.feed("ar".utf8)
        #expect(hasher.value == FNV1a.hash("foobar".utf8))
    }

    @Test func hexIsSixteenZeroPaddedLowercaseDigits() {
        #expect(FNV1a.hex(0xaf63_dc4c_8601_ec8c) == "af63dc4c8601ec8c")
        #expect(FNV1a.hex(0x1f) == "000000000000001f")
    }

    /// Pinned values: entity tags and data versions computed from these lanes are stored by browsers and on disk,
    /// so the lanes must not drift.
    @Test func wideKeepsAPlainLaneAndASecondIndependentOne() {
        var wide = FNV1a.Wide()
        wide.feed("foobar".utf8)
        #expect(wide.first == 0x8594_4171_f739_67e8)
        #expect(wide.second == 0x5898_110f_022c_12f1)
        #expect(wide.folded == 0x062f_83e5_784d_2e2d)
    }

    /// Each lane is plain FNV-1a over its bytes: lane 0 of "abcdefg" sees "a", "e"; the others start at their own
    /// bases. Checked against `FNV1a` itself rather than pinned, since tags live only as long as a browser's cache.
    @Test func stripedFeedsEveryFourthByteToEachOfFourLanes() {
        func lane(_ text: String, basis: UInt64) -> UInt64 {
            var hasher = FNV1a(basis: basis)
            hasher.feed(text.utf8)
            return hasher.value
        }
        let mix: UInt64 = 0x9e37_79b9_7f4a_7c15
        let digest = FNV1a.striped(Array("abcdefg".utf8))
        #expect(
            digest.first == lane("ae", basis: FNV1a.offsetBasis) ^ (lane("bf", basis: 0x8422_2325_cbf2_9ce4) &* mix))
        #expect(
            digest.second == lane("cg", basis: ~FNV1a.offsetBasis) ^ (lane("d", basis: 0x2325_cbf2_9ce4_8422) &* mix))
    }

    @Test func stripedTellsApartEveryOneByteChangeAndEveryLength() {
        let page = Array((0..<67).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let digest = FNV1a.striped(page)
        for index in page.indices {
            var changed = page
            changed[index] ^= 1
            #expect(FNV1a.striped(changed) != digest)
        }
        var seen = Set<[UInt64]>()
        for length in 0...page.count {
            let prefix = FNV1a.striped(Array(page.prefix(length)))
            #expect(seen.insert([prefix.first, prefix.second]).inserted)
        }
    }
}
