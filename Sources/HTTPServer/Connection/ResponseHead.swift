/// Serializes a response's status line and header block (RFC 9112 §4 and §5).
///
/// The connection owns framing: handler-set `Content-Length`, `Transfer-Encoding`, `Date` and `Connection`
/// fields are dropped and replaced, so a handler can never produce a response that desynchronises the
/// stream. Field names and values are checked for bytes that would split the response (CR, LF, NUL).
enum ResponseHead {
    /// Why a response cannot be serialized.
    struct InvalidField: Error, CustomStringConvertible {
        /// The offending field name (the value is not repeated: it may be user data).
        var name: String
        /// A log-friendly description.
        var description: String { "response header '\(name)' contains bytes that are not allowed in a field" }
    }

    /// The bytes of the head, ending with the empty line.
    ///
    /// - Parameters:
    ///   - bodyLength: the body's length, sent as `Content-Length` even for HEAD (RFC 9110 §9.3.2).
    ///   - keepAliveHTTP10: the client is HTTP/1.0 and the connection stays open: say so explicitly.
    static func serialize(
        _ response: Response, bodyLength: Int, close: Bool, keepAliveHTTP10: Bool, date: [UInt8]
    ) throws(InvalidField) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + response.headers.count * 48)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, to: &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: response.status.reason.utf8)
        out.append(contentsOf: crlf)
        for field in response.headers {
            if isConnectionOwned(field.name) { continue }
            guard isToken(field.name) else { throw InvalidField(name: field.name) }
            guard isFieldValue(field.value) else { throw InvalidField(name: field.name) }
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: colonSpace)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: crlf)
        }
        // 1xx and 204 must not carry Content-Length; a 304's would describe the omitted 200 (RFC 9110 §8.6).
        let status = response.status.code
        if status >= 200 && status != 204 && status != 304 {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(bodyLength, to: &out)
            out.append(contentsOf: crlf)
        }
        out.append(contentsOf: "Date: ".utf8)
        out.append(contentsOf: date)
        out.append(contentsOf: crlf)
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAliveHTTP10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: crlf)
        return out
    }

    /// `HTTP/1.1 100 Continue` with its empty line.
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static let crlf: [UInt8] = [13, 10]
    private static let colonSpace: [UInt8] = [UInt8(ascii: ":"), UInt8(ascii: " ")]

    static func isConnectionOwned(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: HTTPHeaders.equal(name, "Date")
        case 10: HTTPHeaders.equal(name, "Connection") || HTTPHeaders.equal(name, "Keep-Alive")
        case 14: HTTPHeaders.equal(name, "Content-Length")
        case 17: HTTPHeaders.equal(name, "Transfer-Encoding")
        default: false
        }
    }

    /// Appends the decimal digits of a non-negative `value` without allocating a String.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// RFC 9110 token: one or more tchar.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(Cookie.isTokenByte)
    }

    /// RFC 9110 §5.5: no CR, LF or NUL, the bytes that would end the field or the head early.
    static func isFieldValue(_ value: String) -> Bool {
        for byte in value.utf8 where byte == 13 || byte == 10 || byte == 0 {
            return false
        }
        return true
    }
}
