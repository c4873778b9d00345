/// The transfer codings a message's `Transfer-Encoding` field lines name, checked as each line comes (RFC 9112 §6.1):
/// `chunked` at most once and last; anything else is a coding neither side supports. Request and response parsers
/// both decide their framing from it.
public struct TransferCodings: Sendable, Equatable {
    /// What is wrong with a `Transfer-Encoding` value; each parser maps it onto its own error.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// An element that is not a bare token (parameters, quotes, control bytes).
        case invalidCoding
        /// A coding after `chunked`, including a second `chunked`: the body length is then unknowable.
        case chunkedNotFinal
    }

    /// Whether any `Transfer-Encoding` field line was seen.
    public private(set) var isPresent = false
    /// Whether the last coding is `chunked`.
    public private(set) var isChunked = false
    /// Whether a coding other than `chunked` was named.
    public private(set) var hasOtherCoding = false

    /// No field line seen yet.
    public init() {}

    /// Whether the codings are exactly `chunked`: the one framing by transfer coding either side accepts.
    public var isChunkedOnly: Bool { isChunked && !hasOtherCoding }

    /// Adds one field line's value: a comma-separated list, empty elements skipped (RFC 9110 §5.6.1).
    public mutating func add(_ value: UnsafeBufferPointer<UInt8>) throws(Error) {
        isPresent = true
        try HTTPList.forEachElement(in: value) { element throws(Error) in
            let coding = UnsafeBufferPointer(rebasing: value[element])
            // Parameters (`;q=…`) or quotes make it something we cannot vouch for.
            for byte in coding where !HTTPBytes.isToken(byte) { throw .invalidCoding }
            guard !isChunked else { throw .chunkedNotFinal }
            if HTTPBytes.equalsLowercase(coding, "chunked") {
                isChunked = true
            } else {
                hasOtherCoding = true
            }
        }
    }

    /// Adds one field line's value given as text (a response's fields are already strings).
    public mutating func add(_ value: String) throws(Error) {
        var value = value
        let outcome: Result<Void, Error> = value.withUTF8 { bytes in
            do throws(Error) {
                try add(bytes)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }
}
