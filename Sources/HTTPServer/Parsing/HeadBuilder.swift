import HTTPCore

/// Collects a request head line by line, with the framing facts RFC 9112 §6 decisions need.
struct HeadBuilder {
    /// The parsed request-line.
    let requestLine: RequestLine
    /// Starts a head from its request-line.
    init(requestLine: RequestLine) {
        self.requestLine = requestLine
        // A browser sends 10 to 15 fields: one allocation instead of a doubling at 1, 2, 4 and 8 (about 1 % of a
        // warm page's CPU went to growing this array).
        headers.reserveCapacity(Self.expectedFieldCount)
    }

    /// The fields a head is given room for at its start.
    static let expectedFieldCount = 16

    /// The fields so far, in order.
    var headers = HTTPHeaders()
    /// How many Host field lines were seen.
    var hostCount = 0
    /// The Content-Length value (saturated at `Int.max`), if the field was present.
    var contentLength: Int?
    /// The Transfer-Encoding codings (HTTPCore's `TransferCodings`, which the response parser uses too).
    var transferCodings = TransferCodings()
    /// Whether `Expect: 100-continue` was present.
    var expectsContinue = false
    /// Whether an Expect value other than `100-continue` was present.
    var unsupportedExpectation = false

    /// Records the field line `bytes[range]`, checking the fields that decide framing as they arrive.
    mutating func addField(_ bytes: [UInt8], _ range: Range<Int>) throws(RequestParseError) {
        try bytes.withUnsafeBufferPointer { buffer throws(RequestParseError) in
            let line: FieldLine
            do throws(FieldLine.Error) {
                line = try FieldLine.parse(buffer, range)
            } catch {
                throw RequestParseError(error)
            }
            let name = UnsafeBufferPointer(rebasing: buffer[line.name])
            let value = UnsafeBufferPointer(rebasing: buffer[line.value])
            // Dispatch on the length first: almost every field is none of these four.
            switch name.count {
            case 4 where HTTPBytes.equalsLowercase(name, "host"): try addHost(value)
            case 6 where HTTPBytes.equalsLowercase(name, "expect"): addExpect(value)
            case 14 where HTTPBytes.equalsLowercase(name, "content-length"): try addContentLength(value)
            case 17 where HTTPBytes.equalsLowercase(name, "transfer-encoding"): try addTransferEncoding(value)
            default: break
            }
            headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
    }

    /// Exactly one Host, with a plausible `uri-host [":" port]` value (RFC 9112 §3.2). Empty is allowed.
    private mutating func addHost(_ value: UnsafeBufferPointer<UInt8>) throws(RequestParseError) {
        hostCount += 1
        guard hostCount == 1 else { throw .duplicateHost }
        for byte in value where !HTTPBytes.isHost(byte) { throw .invalidHost }
    }

    /// `100-continue` (case-insensitive) or anything else, which earns a 417 (RFC 9110 §10.1.1).
    private mutating func addExpect(_ value: UnsafeBufferPointer<UInt8>) {
        if HTTPBytes.equalsLowercase(value, "100-continue") {
            expectsContinue = true
        } else {
            unsupportedExpectation = true
        }
    }

    /// One run of digits, once. Lists and repeats, even of equal values, are refused: RFC 9112 §6.3 lets a
    /// server merge them, but a strict 400 leaves nothing for a smuggler to play with.
    private mutating func addContentLength(_ value: UnsafeBufferPointer<UInt8>) throws(RequestParseError) {
        guard contentLength == nil else { throw .duplicateContentLength }
        // Saturated: a huge but well-formed length is a 413, not a 400.
        guard let length = ContentLength.parse(value) else { throw .invalidContentLength }
        contentLength = length
    }

    /// A comma-separated list of codings (possibly over several field lines): `chunked` once and last,
    /// anything else unsupported (RFC 9112 §6.1).
    private mutating func addTransferEncoding(_ value: UnsafeBufferPointer<UInt8>) throws(RequestParseError) {
        do throws(TransferCodings.Error) {
            try transferCodings.add(value)
        } catch {
            throw RequestParseError(error)
        }
    }

    /// How the body of a finished head is delimited.
    enum Framing: Equatable {
        /// No body.
        case none
        /// Exactly this many bytes (more than zero).
        case length(Int)
        /// Chunked transfer coding.
        case chunked
    }

    /// The checks that need the whole head, in a fixed order: Host, then framing, then limits, then Expect.
    func framing(limits: RequestParser.Limits) throws(RequestParseError) -> Framing {
        let version = requestLine.version
        if version == .http1_1 && hostCount == 0 { throw .missingHost }
        if transferCodings.isPresent {
            // HTTP/1.0 has no chunked coding; a 1.0 peer cannot have meant it (RFC 9112 §6.1).
            guard version == .http1_1 else { throw .transferEncodingOnHTTP10 }
            guard contentLength == nil else { throw .contentLengthWithTransferEncoding }
            guard !transferCodings.hasOtherCoding else { throw .unsupportedTransferCoding }
            guard transferCodings.isChunked else { throw .invalidTransferEncoding }
        }
        // Decided from the announced length, before a byte of the body is read.
        if let contentLength, contentLength > limits.bodyBytes { throw .bodyTooLarge }
        if unsupportedExpectation { throw .unsupportedExpectation }
        if transferCodings.isChunked { return .chunked }
        if let contentLength, contentLength > 0 { return .length(contentLength) }
        // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3, rule 6).
        return .none
    }

    /// The finished head.
    ///
    /// With an absolute-form target, the target's authority replaces the Host field (RFC 9112 §3.2.2: the server
    /// "MUST ignore the received Host header field ... and instead use the host information of the
    /// request-target"), so everything after the parser (routing, the Origin check) sees one authority. The Host
    /// field itself is still required on HTTP/1.1 and checked like any other (§3.2: missing, repeated or invalid
    /// is 400), so an absolute-form request passes no check an origin-form one would fail.
    func makeHead() -> RequestHead {
        var headers = headers
        if let authority = requestLine.authority {
            headers.replaceOrAdd(name: "Host", value: authority)
        }
        return RequestHead(
            method: requestLine.method, target: requestLine.target, version: requestLine.version, headers: headers)
    }
}
