import Testing

@testable import HTTPServer

/// What feeding a byte sequence to a fresh parser produced.
struct ParseOutcome: Equatable {
    /// Every event except `.needMoreData`, in order.
    var events: [RequestParser.Event] = []
    /// The error thrown, if any (parsing stops there).
    var error: RequestParseError?
    /// The parser's phase after the last byte.
    var phase: RequestParser.Phase = .idle

    /// The requests among `events`.
    var requests: [Request] {
        events.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }
}

/// Feeds requests to `RequestParser` whole, split in two at every byte boundary, and one byte at a time,
/// and checks the outcomes agree (STYLE 4.7: feed the same input in chunks to test incremental parsing).
enum ParserDriver {
    /// Feeds `chunks` in order, calling `next()` until it needs more data after each.
    static func feed(_ chunks: [ArraySlice<UInt8>], limits: RequestParser.Limits = .init()) -> ParseOutcome {
        var parser = RequestParser(limits: limits)
        var outcome = ParseOutcome()
        for chunk in chunks {
            parser.append(chunk)
            while true {
                do {
                    let event = try parser.next()
                    if event == .needMoreData { break }
                    outcome.events.append(event)
                } catch {
                    outcome.error = error
                    outcome.phase = parser.phase
                    return outcome
                }
            }
        }
        outcome.phase = parser.phase
        return outcome
    }

    /// Parses `text` whole, at every 2-way split (sampled for long inputs) and in 1-byte chunks; expects every
    /// way to agree and returns the outcome.
    @discardableResult
    static func parse(
        _ text: String, limits: RequestParser.Limits = .init(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> ParseOutcome {
        parse(Array(text.utf8), limits: limits, sourceLocation: sourceLocation)
    }

    /// Byte version of `parse(_:limits:)`.
    @discardableResult
    static func parse(
        _ bytes: [UInt8], limits: RequestParser.Limits = .init(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> ParseOutcome {
        let whole = feed([bytes[...]], limits: limits)
        // Every boundary for ordinary requests. For the multi-kilobyte limit cases: every boundary of the first
        // 512 bytes (where the head is), about 64 more spread over the rest, and the last 16. Every boundary of a
        // 64 KiB body was quadratic work that held a cooperative thread for seconds and starved the live tests.
        let splits =
            bytes.count <= 2048
            ? Array(0...bytes.count)
            : Array(0...512) + Array(stride(from: 513, through: bytes.count, by: max(61, bytes.count / 64)))
                + Array(bytes.count - 16...bytes.count)
        for split in splits {
            let outcome = feed([bytes[..<split], bytes[split...]], limits: limits)
            #expect(outcome == whole, "split at \(split) of \(bytes.count)", sourceLocation: sourceLocation)
            if outcome != whole { break }
        }
        let byteByByte = feed(bytes.indices.map { bytes[$0...$0] }, limits: limits)
        #expect(byteByByte == whole, "fed one byte at a time", sourceLocation: sourceLocation)
        return whole
    }

    /// Expects `text` to be refused with `error`, however it is split.
    static func expectRejection(
        _ text: String, _ error: RequestParseError, limits: RequestParser.Limits = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let outcome = parse(text, limits: limits, sourceLocation: sourceLocation)
        #expect(outcome.error == error, "\(text.debugDescription)", sourceLocation: sourceLocation)
    }
}
