import Logging
import Testing

@testable import HTTPServer

@Suite struct RequestIDGeneratorTests {
    @Test func idsArePrefixThenCounterInBase36() {
        for value in [0, 1, 35, 36, 1295, 1_000_000, Int.max] {
            #expect(RequestIDGenerator.format(prefix: "3f-", value) == "3f-" + String(value, radix: 36))
        }
    }

    @Test func consecutiveIdsDifferAndShareThePrefix() {
        let generator = RequestIDGenerator()
        let ids = (0..<1000).map { _ in generator.nextID().text }
        #expect(Set(ids).count == 1000)
        let prefix = ids[0].prefix { $0 != "-" }
        #expect(ids.allSatisfy { $0.hasPrefix(prefix + "-") })
    }

    @Test func loggerWithOneKeyAddsItToTheMetadata() {
        let base = Logger(label: "t", metadata: ["a": "1"], sink: { _, _ in })
        #expect(base.with("request.id", "x").metadata == ["a": "1", "request.id": "x"])
    }
}
