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
}
