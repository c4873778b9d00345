import Testing

@testable import HabitsAPI

/// Robustness (issue 18): whatever an upstream sends, bytes changed anywhere and split anywhere, the parser answers
/// with responses or one clear `ResponseParseError`, never a crash or a hang, and a dead parser stays dead.
extension ResponseParserTests {
    /// A small deterministic generator (SplitMix64), so a failing case can be replayed from its seed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static let seeds: [String] = [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=\"y\"\r\nhello\r\n1A\r\n"
            + String(repeating: "b", count: 26) + "\r\n0\r\nX-Trailer: 1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello",
        "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 304 Not Modified\r\nETag: \"a\"\r\n\r\n",
    ]

    /// Bytes that make framing interesting when they land in the wrong place.
    static let interesting: [UInt8] = Array("\r\n:; ,\t0F-\"\u{7F}".utf8) + [0, 0x80, 0xFF]

    @Test(arguments: 0..<seeds.count)
    func mutatedResponsesGiveResponsesOrOneClearError(seedIndex: Int) {
        var random = Generator(state: UInt64(seedIndex + 1))
        let original = Array(Self.seeds[seedIndex].utf8)
        var outcomes = [String: Int]()
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0...random.below(3) {
                let index = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[index] = Self.interesting[random.below(Self.interesting.count)]
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(Self.interesting[random.below(Self.interesting.count)], at: index)
                default: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            var parser = ResponseParser()
            var failure: ResponseParseError?
            var responses = 0
            var offset = 0
            // Split at random points; each read is followed by as many `next()` calls as it takes.
            while offset < bytes.count && failure == nil {
                let end = min(bytes.count, offset + 1 + random.below(16))
                parser.append(bytes[offset..<end])
                offset = end
                failure = drain(&parser, counting: &responses)
            }
            if failure == nil {
                parser.finish()
                failure = drain(&parser, counting: &responses)
            }
            if let failure {
                #expect(throws: failure) { try parser.next() }
            }
            // After whole responses, the end of the stream where a next one would start is `unexpectedEnd` too.
            let key = responses > 0 && (failure == nil || failure == .unexpectedEnd) ? "parsed" : failure?.description
            outcomes[key ?? "needs more", default: 0] += 1
        }
        // The mutations reach both sides of the parser: some still parse, some are refused.
        #expect(outcomes["parsed", default: 0] > 0)
        #expect(outcomes.keys.count > 2, "\(outcomes)")
    }

    /// Calls `next()` until it needs more bytes (at most a few hundred responses), counting responses, returning the
    /// error it threw.
    private func drain(_ parser: inout ResponseParser, counting responses: inout Int) -> ResponseParseError? {
        for _ in 0..<256 {
            do {
                guard case .response = try parser.next() else { return nil }
                responses += 1
            } catch {
                return error
            }
        }
        return nil
    }
}
