import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct EntityTagTests {
    @Test func sameBytesGiveTheSameStrongTagAndOneChangedByteAnother() {
        let tag = EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8))
        #expect(tag == EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8)))
        #expect(tag != EntityTag.strong(for: Array("<p>Yoga 6</p>".utf8)))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
    }

    /// Each content coding is a representation with its own strong validator (RFC 9110 §8.8.3): the gzip tag
    /// is the identity tag's opaque value with `-gzip` inside the quotes, so it differs from the plain one and a
    /// cache holding one never takes the other for it.
    @Test func theGzipVariantIsTheSameTagWithGzipInsideTheQuotes() {
        let plain = EntityTag.strong(for: Array("<p>Yoga 5</p>".utf8))
        let variant = EntityTag.gzipVariant(of: plain)
        #expect(variant == String(plain.dropLast()) + "-gzip\"")
        #expect(variant != plain)
        #expect(variant.hasPrefix("\"") && variant.hasSuffix("-gzip\""))
        #expect(EntityTag.gzipVariant(of: "\"1-ab\"") == "\"1-ab-gzip\"")
        #expect(EntityTag.gzipVariant(of: "unquoted") == "unquoted-gzip")
    }
}
