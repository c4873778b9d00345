import HTTPCore
import Testing

@Suite struct HTTPHeadersTests {
    @Test(arguments: [
        ("Content-Type", "content-type", true), ("ETAG", "ETag", true), ("X-1", "x-1", true), ("Host", "Hosts", false),
        ("Cookie", "Cookiz", false), ("a-b", "a_b", false), ("[", "{", false), ("é", "É", false), ("", "", true),
    ])
    func namesCompareWithoutRegardToASCIICase(first: String, second: String, equal: Bool) {
        #expect(HTTPHeaders.equal(first, second) == equal)
        #expect(HTTPHeaders.equal(second, first) == equal)
    }

    @Test func lookupFindsTheFirstFieldInAnyCase() {
        let headers: HTTPHeaders = ["cookie": "a=1", "COOKIE": "b=2"]
        #expect(headers["Cookie"] == "a=1")
        #expect(headers.values(for: "Cookie") == ["a=1", "b=2"])
    }
}
