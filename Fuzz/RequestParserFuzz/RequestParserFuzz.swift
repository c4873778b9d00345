// libFuzzer harness for RequestParser. Built only with HABITS_FUZZ=1 (see docs/FUZZING.md and Fuzz/run.sh).
//
// Input layout: byte 0 picks the limits (tiny ones make every limit reachable) and the split point; the rest
// is the stream of request bytes. Invariants checked on every input:
// - no crash, no sanitizer report;
// - the parser never consumes more bytes than it was given, and its indices stay inside its buffer;
// - fed whole, split in two at a data-derived point, and (for short inputs) one byte at a time, the events and
//   the error are the same;
// - once dead, the parser keeps throwing the same error;
// - every request respects the limits, and re-serialising it gives bytes that parse back to the same request.

import FuzzSupport

@testable import HTTPServer

/// What one way of feeding produced.
struct Outcome: Equatable {
    var events: [RequestParser.Event] = []
    var error: RequestParseError?
}

/// Tiny limits, so the fuzzer reaches every limit branch with short inputs.
let tinyLimits = RequestParser.Limits(
    requestLineBytes: 40, headerLineBytes: 30, headBytes: 120, headerCount: 4, bodyBytes: 24, chunkLineBytes: 16,
    trailerBytes: 24)

/// Feeds `chunks` to a fresh parser, checking the buffer invariants after every call.
func feed(_ chunks: [ArraySlice<UInt8>], limits: RequestParser.Limits) -> Outcome {
    var parser = RequestParser(limits: limits)
    var outcome = Outcome()
    var given = 0
    for chunk in chunks {
        parser.append(chunk)
        given += chunk.count
        while true {
            do {
                let event = try parser.next()
                checkIndices(parser, given: given)
                if event == .needMoreData { break }
                outcome.events.append(event)
            } catch {
                outcome.error = error
                // A dead parser stays dead, whatever arrives next.
                parser.append([0x0D, 0x0A])
                do {
                    _ = try parser.next()
                    fatalError("parser revived after \(error)")
                } catch let again {
                    require(again == error, "dead parser threw \(again) after \(error)")
                }
                return outcome
            }
        }
    }
    return outcome
}

/// The parser's indices never run past what it holds, and it never holds more than it was given.
func checkIndices(_ parser: RequestParser, given: Int) {
    require(parser.readIndex >= 0 && parser.readIndex <= parser.buffer.count, "readIndex out of the buffer")
    require(parser.scanIndex >= parser.readIndex && parser.scanIndex <= parser.buffer.count, "scanIndex out")
    require(parser.buffer.count <= given, "buffer holds more than was given")
}

/// Checks one parsed request against the limits and re-parses its re-serialised form.
func checkRequest(_ request: Request, limits: RequestParser.Limits) {
    require(request.body.count <= limits.bodyBytes, "body over the limit")
    require(request.headers.count <= limits.headerCount, "too many headers")
    let target = request.head.target
    require(target.hasPrefix("/") || (target == "*" && request.method == .options), "bad target \(target)")
    if let length = request.headers["content-length"] {
        require(Int(length) == request.body.count, "Content-Length \(length) but body \(request.body.count)")
    }
    let chunked = request.headers.contains("transfer-encoding")
    var bytes = Array("\(request.method) \(target) \(request.version)\r\n".utf8)
    for field in request.headers { bytes += Array("\(field.name): \(field.value)\r\n".utf8) }
    bytes += [0x0D, 0x0A]
    if chunked {
        if !request.body.isEmpty { bytes += Array(String(request.body.count, radix: 16).utf8) + [0x0D, 0x0A] }
        bytes += request.body.isEmpty ? [] : request.body + [0x0D, 0x0A]
        bytes += Array("0\r\n\r\n".utf8)
    } else {
        bytes += request.body
    }
    // Re-serialising adds a space per field and turns each invalid UTF-8 byte of obs-text into U+FFFD (3 bytes).
    var roomy = limits
    roomy.headBytes = 3 * limits.headBytes + 2 * limits.headerCount
    roomy.headerLineBytes = 3 * limits.headerLineBytes + 1
    let again = feed([bytes[...]], limits: roomy)
    require(again.error == nil, "re-serialised request refused: \(String(describing: again.error))")
    require(again.events.last == .request(request), "re-serialised request differs")
}

/// One input: limits and split from byte 0, the stream from the rest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = Int(input[0])
    let stream = input[1...]
    let limits = selector & 1 == 1 ? tinyLimits : RequestParser.Limits()

    let whole = feed([stream], limits: limits)
    let split = stream.startIndex + (selector >> 1) * stream.count / 127
    let halves = feed([stream[..<split], stream[split...]], limits: limits)
    require(halves == whole, "split at \(split - 1) changed the outcome")
    if stream.count <= 256 {
        let bytes = feed(stream.indices.map { stream[$0...$0] }, limits: limits)
        require(bytes == whole, "byte-at-a-time feeding changed the outcome")
    }
    for case .request(let request) in whole.events { checkRequest(request, limits: limits) }
    return 0
}

/// The executable's entry point: hands over to libFuzzer.
@_cdecl("RequestParserFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzOneInput)
}
