import Testing

@testable import HTTPCore

@Suite struct AcceptEncodingTests {
    @Test(arguments: [
        ("gzip", true), ("GZIP", true), ("x-gzip", true), ("br, gzip", true), ("gzip;q=0.5", true),
        ("*", true), ("br, *;q=0.1", true), ("gzip;q=0, *", false), ("*;q=0", false), ("gzip; q=0.000", false),
        ("identity", false), ("br", false), ("", false), ("gzip;q=0.001", true), ("deflate, gzip ; q = 1", true),
    ])
    func readsWhetherGzipIsAcceptable(field: String, expected: Bool) {
        #expect(AcceptEncoding.allowsGzip(field) == expected)
    }

    @Test func noFieldMeansNoCompression() {
        #expect(!AcceptEncoding.allowsGzip(nil))
    }
}
