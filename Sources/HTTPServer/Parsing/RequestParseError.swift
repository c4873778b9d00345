import HTTPCore

/// Why the parser refused a request. After any of these the parser is dead: the connection answers
/// `status` with `Connection: close` and closes (RFC 9112 §11.2: a desynchronised stream must not be reused).
public enum RequestParseError: Error, Equatable, Sendable {
    // MARK: - Request-line (RFC 9112 §3)

    /// The request-line is not `method SP request-target SP HTTP-version` with single spaces.
    case invalidRequestLine
    /// The method contains a byte that is not a token character (RFC 9110 §5.6.2).
    case invalidMethod
    /// The request-target is neither origin-form (`/…`) nor an `http`/`https` absolute-form with a valid authority
    /// and no userinfo, or is `*` on a method other than OPTIONS, or holds bytes outside visible ASCII.
    case invalidTarget
    /// The HTTP-version is not `HTTP/DIGIT.DIGIT` (the name is case-sensitive, RFC 9112 §2.3).
    case invalidVersion
    /// A well-formed version this server does not speak (only HTTP/1.x is served).
    case unsupportedVersion
    /// More empty lines before the request-line than the few RFC 9112 §2.2 asks us to tolerate.
    case tooManyEmptyLines

    // MARK: - Line structure (RFC 9112 §2.2)

    /// A CR not followed by LF in the head, a chunk line or the trailers.
    case bareCarriageReturn
    /// An LF not preceded by CR in the head, a chunk line or the trailers.
    case bareLineFeed

    // MARK: - Field lines (RFC 9112 §5)

    /// A field line starting with whitespace: obsolete line folding (RFC 9112 §5.2).
    case obsoleteLineFolding
    /// Whitespace between the field name and the colon (RFC 9112 §5.1 requires a 400).
    case whitespaceBeforeColon
    /// A field line without a colon.
    case missingColon
    /// A field name that is empty or holds a non-token byte.
    case invalidFieldName
    /// A field value holding a control character other than HTAB, or DEL (RFC 9110 §5.5).
    case invalidFieldValue

    // MARK: - Host (RFC 9112 §3.2)

    /// An HTTP/1.1 request without a Host field.
    case missingHost
    /// More than one Host field line.
    case duplicateHost
    /// A Host value that is not `uri-host [":" port]`.
    case invalidHost

    // MARK: - Framing (RFC 9112 §6)

    /// A Content-Length that is not a single run of digits (lists, signs, spaces, empty).
    case invalidContentLength
    /// More than one Content-Length field line.
    case duplicateContentLength
    /// Content-Length and Transfer-Encoding together: a request-smuggling vector (RFC 9112 §6.3).
    case contentLengthWithTransferEncoding
    /// Transfer-Encoding on an HTTP/1.0 request, which cannot carry it (RFC 9112 §6.1).
    case transferEncodingOnHTTP10
    /// A Transfer-Encoding list that is empty or holds something that is not a bare token.
    case invalidTransferEncoding
    /// `chunked` applied more than once, or not as the final coding (RFC 9112 §6.1, §6.3).
    case chunkedNotFinal
    /// A transfer coding other than `chunked` (RFC 9112 §6.1: 501).
    case unsupportedTransferCoding

    // MARK: - Chunked body (RFC 9112 §7.1)

    /// A chunk size that is not plain hexadecimal (no sign, prefix or surrounding whitespace).
    case invalidChunkSize
    /// A malformed chunk extension.
    case invalidChunkExtension
    /// A chunk-size line longer than `Limits.chunkLineBytes`.
    case chunkLineTooLong
    /// Chunk data not followed by CRLF.
    case missingChunkTerminator

    // MARK: - Limits and expectations

    /// The request-line is longer than `Limits.requestLineBytes`.
    case requestLineTooLong
    /// One field line is longer than `Limits.headerLineBytes`.
    case headerLineTooLong
    /// The whole head is larger than `Limits.headBytes`.
    case headTooLarge
    /// More than `Limits.headerCount` field lines.
    case tooManyHeaders
    /// The trailer section is larger than `Limits.trailerBytes`.
    case trailersTooLarge
    /// The body is (or announces itself to be) larger than `Limits.bodyBytes`.
    case bodyTooLarge
    /// An `Expect` value other than `100-continue` (RFC 9110 §10.1.1).
    case unsupportedExpectation

    /// The request parser's name for a field-line error of the shared grammar (HTTPCore's `FieldLine`).
    init(_ error: FieldLine.Error) {
        switch error {
        case .obsoleteLineFolding: self = .obsoleteLineFolding
        case .whitespaceBeforeColon: self = .whitespaceBeforeColon
        case .missingColon: self = .missingColon
        case .invalidName: self = .invalidFieldName
        case .invalidValue: self = .invalidFieldValue
        }
    }

    /// The request parser's name for a chunk-size line error of the shared grammar (HTTPCore's `ChunkSizeLine`).
    init(_ error: ChunkSizeLine.Error) {
        switch error {
        case .invalidSize: self = .invalidChunkSize
        case .invalidExtension: self = .invalidChunkExtension
        }
    }

    /// The request parser's name for an error of the shared chunked decoder (HTTPCore's `ChunkedBody`).
    init(_ error: ChunkedBody.Error) {
        switch error {
        case .chunkLineTooLong: self = .chunkLineTooLong
        case .invalidChunkSize(let error): self.init(error)
        case .missingChunkTerminator: self = .missingChunkTerminator
        case .trailerLineTooLong: self = .headerLineTooLong
        case .trailersTooLarge: self = .trailersTooLarge
        case .invalidTrailer(let error): self.init(error)
        case .bareCarriageReturn: self = .bareCarriageReturn
        case .bareLineFeed: self = .bareLineFeed
        case .bodyTooLarge: self = .bodyTooLarge
        }
    }

    /// The request parser's name for a Transfer-Encoding error of the shared grammar (HTTPCore's `TransferCodings`).
    init(_ error: TransferCodings.Error) {
        switch error {
        case .invalidCoding: self = .invalidTransferEncoding
        case .chunkedNotFinal: self = .chunkedNotFinal
        }
    }

    /// The status the connection answers with before closing.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .headerLineTooLong, .headTooLarge, .tooManyHeaders, .trailersTooLarge: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .payloadTooLarge
        case .unsupportedExpectation: .expectationFailed
        case .unsupportedTransferCoding: .notImplemented
        case .unsupportedVersion: .httpVersionNotSupported
        default: .badRequest
        }
    }
}
