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

    /// A field without parameters or a wildcard is read from its bytes (issue 21); it must read as the general
    /// parse does, and anything else must be left to it.
    @Test(arguments: [
        "gzip", "GZIP", "x-gzip", "X-Gzip", "br, gzip", "gzip, deflate, br", "identity", "br", "", " gzip ",
        "gzip ,br", "gz ip", "gzipx", "xgzip", "x-gzi", ",,gzip,,", "deflate\tgzip", "\tgzip\t", "gzip2", "g",
    ])
    func aPlainListReadsAsTheGeneralParse(field: String) {
        #expect(AcceptEncoding.plainList(field) == AcceptEncoding.parsed(field), "\(field)")
    }

    @Test(arguments: ["gzip;q=0", "*", "br, *;q=0.1", "gzıp", "gzip; q=1"])
    func parametersWildcardsAndNonASCIIAreLeftToTheGeneralParse(field: String) {
        #expect(AcceptEncoding.plainList(field) == nil)
    }
}
