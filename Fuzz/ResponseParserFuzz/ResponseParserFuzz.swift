// libFuzzer harness for HabitsAPI's ResponseParser: the upstream is untrusted, so its bytes are fuzzed like a
// client's. Built only with HABITS_FUZZ=1 (see docs/FUZZING.md and Fuzz/run.sh).
//
// Input layout: byte 0 picks the limits (odd: tiny ones, so every limit is reachable with short inputs), whether a
// 5,000-byte response goes first (so the parser's buffer compaction runs), and the split point; the rest is the
// stream of response bytes, after which the peer closes. Invariants checked on every input:
// - no crash, no sanitizer report;
// - fed whole, split in two, in random chunks and (short inputs) one byte at a time, the responses, their
//   `reusable` flags and the error are the same;
// - once dead, the parser keeps throwing the same error;
// - every response respects the limits and its framing (Content-Length = body size, no body on 204/304, no 1xx),
//   and re-serialising it gives bytes that parse back to the same response.

import FuzzSupport
import HTTPCore
import HabitsAPI

/// What one way of feeding produced.
struct Outcome: Equatable {
    var events: [ResponseParser.Event] = []
    var error: ResponseParseError?
}

/// Tiny limits, so the fuzzer reaches every limit branch with short inputs.
let tinyLimits: ResponseParser.Limits = {
    var limits = ResponseParser.Limits()
    limits.lineBytes = 40
    limits.headBytes = 120
    limits.headerCount = 4
    limits.bodyBytes = 48
    limits.chunkLineBytes = 16
    limits.trailerBytes = 24
    return limits
}()

/// A response that moves the parser's read position past its 4 KiB compaction threshold.
let bigResponse: [UInt8] =
    Array("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n".utf8) + [UInt8](repeating: 0x61, count: 5000)

/// Feeds `chunks` to a fresh parser, then marks the end of the stream (the upstream closed).
func feed(_ chunks: [ArraySlice<UInt8>], limits: ResponseParser.Limits) -> Outcome {
    var parser = ResponseParser(limits: limits)
    var outcome = Outcome()
    func drain() -> Bool {
        while true {
            do {
                let event = try parser.next()
                if event == .needMoreData { return true }
                outcome.events.append(event)
            } catch {
                outcome.error = error
                // A dead parser stays dead, whatever arrives next.
                parser.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
                do {
                    _ = try parser.next()
                    fatalError("parser revived after \(error)")
                } catch let again {
                    require(again == error, "dead parser threw \(again) after \(error)")
                }
                return false
            }
        }
    }
    for chunk in chunks {
        parser.append(chunk)
        if !drain() { return outcome }
    }
    parser.finish()
    _ = drain()
    return outcome
}

/// Checks one response against the limits and its framing, then re-parses its re-serialised form.
func checkResponse(_ response: HTTPClientResponse, reusable: Bool, limits: ResponseParser.Limits) {
    require(response.body.count <= limits.bodyBytes, "body \(response.body.count) over the limit")
    require(response.headers.count <= limits.headerCount, "too many headers")
    require((200...999).contains(response.status.code), "status \(response.status.code) returned")
    let chunked = response.headers.contains("Transfer-Encoding")
    if response.status == .noContent || response.status == .notModified {
        require(response.body.isEmpty, "a body on \(response.status.code)")
        return
    }
    if let length = response.headers["Content-Length"], !chunked {
        let first = length.split(separator: ",", omittingEmptySubsequences: false)[0]
        require(Int(trimmedOWS(first)) == response.body.count, "Content-Length \(length) but body")
    }
    if !chunked && !response.headers.contains("Content-Length") {
        require(!reusable, "a close-delimited body left the connection reusable")
        return  // re-serialising would need a close; the framing above is all there is to check
    }
    var bytes = Array("HTTP/1.1 \(response.status.code) X\r\n".utf8)
    for field in response.headers { bytes += Array("\(field.name): \(field.value)\r\n".utf8) }
    bytes += [0x0D, 0x0A]
    if chunked {
        if !response.body.isEmpty {
            bytes += Array(String(response.body.count, radix: 16).utf8) + [0x0D, 0x0A] + response.body + [0x0D, 0x0A]
        }
        bytes += Array("0\r\n\r\n".utf8)
    } else {
        bytes += response.body
    }
    // Each invalid UTF-8 byte of a header becomes U+FFFD (3 bytes) once it is a String.
    var roomy = limits
    roomy.headBytes = 3 * limits.headBytes + 64
    roomy.lineBytes = 3 * limits.lineBytes + 32
    let again = feed([bytes[...]], limits: roomy)
    // The close after it ends the stream where a next response would start: that is `unexpectedEnd` (a request
    // that gets no answer), which the transport never sees since it stops at the first response.
    require(again.error == .unexpectedEnd, "re-serialised response refused: \(String(describing: again.error))")
    require(again.events.count == 1, "re-serialised response parsed as \(again.events.count)")
    guard case .response(let parsed, _) = again.events.first else { fatalError("re-serialised response lost") }
    require(parsed == response, "re-serialised response differs")
}

/// `text` without leading and trailing spaces and tabs.
func trimmedOWS(_ text: Substring) -> Substring {
    var text = text
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return text
}

/// One input: limits and split from byte 0, the stream from the rest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = Int(input[0])
    let tiny = selector & 1 == 1
    let limits = tiny ? tinyLimits : ResponseParser.Limits()
    // The big prefix only fits the default limits.
    let stream = (!tiny && selector & 2 == 2 ? bigResponse : []) + input[1...]
    let split = (selector >> 2) * stream.count / 63

    var whole: Outcome?
    for chunks in feedings(of: stream[...], split: split) {
        let outcome = feed(chunks, limits: limits)
        if let whole {
            require(outcome == whole, "feeding in \(chunks.count) chunks changed the outcome")
        } else {
            whole = outcome
        }
    }
    for case .response(let response, let reusable) in whole?.events ?? [] {
        checkResponse(response, reusable: reusable, limits: limits)
    }
    return 0
}

/// The executable's entry point: hands over to libFuzzer.
@_cdecl("ResponseParserFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzOneInput)
}
