import Testing

@testable import Compression

@Suite struct GzipTests {
    @Test(arguments: [0, 1, 1000, 100_000])
    func roundTripsWhatItCompresses(size: Int) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 / 13) }
        let compressed = Gzip.compress(bytes)
        #expect(compressed.starts(with: [0x1F, 0x8B]), "a gzip member header (RFC 1952 §2.3.1)")
        #expect(Gzip.decompress(compressed) == bytes)
    }

    @Test func shrinksRepetitiveHTML() {
        let html = Array(
            String(repeating: "<li class=\"card\"><a href=\"/people/user1\">Ada</a></li>\n", count: 200).utf8)
        #expect(Gzip.compress(html).count * 10 < html.count)
    }

    @Test func refusesTruncatedOrForeignInput() {
        let compressed = Gzip.compress(Array("hello, hello, hello".utf8))
        #expect(Gzip.decompress(Array(compressed.dropLast(3))) == nil)
        #expect(Gzip.decompress(Array("not gzip at all".utf8)) == nil)
        #expect(Gzip.decompress(compressed + [0]) == nil, "trailing garbage")
    }
}
