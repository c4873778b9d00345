import HTTPCore

/// Serializes a response's status line and header block (RFC 9112 §4 and §5).
///
/// The connection owns framing: handler-set `Content-Length`, `Transfer-Encoding`, `Date` and `Connection`
/// fields are dropped and replaced, so a handler can never produce a response that desynchronises the
/// stream. Field names and values are checked for bytes that would split the response (CR, LF, NUL).
///
/// Every response also carries `X-Content-Type-Options: nosniff` (a handler's own is replaced): error answers
/// and plain-text 404s can quote the request, and a browser that sniffed them as HTML would run what they quote
/// (issue 8). It has no other value, so the server owns it like `Date`.
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
    ///   - fieldLines: the response's fields as `writeFields` writes them, prepared before (`PreparedFields`).
    ///   - scratch: memory the caller keeps (`EventLoop.headScratch`) to write the head into before it is copied
    ///     into its array. `[UInt8](unsafeUninitializedCapacity:)` runs the standard library's unspecialized buffer
    ///     initializer, which looks up `_ContiguousArrayStorage<UInt8>`'s type metadata in the runtime's cache on
    ///     every call (about 5 % of the loop's user time under wrk); an array made from a buffer is allocated
    ///     through the specialized path. A head longer than `scratch` is written the first way.
    static func serialize(
        _ response: Response, bodyLength: Int, close: Bool, keepAliveHTTP10: Bool, date: [UInt8],
        fieldLines: [UInt8]? = nil, scratch: UnsafeMutableBufferPointer<UInt8>? = nil
    ) throws(InvalidField) -> [UInt8] {
        let bound = bound(response, dateCount: date.count)
        if let scratch, bound <= scratch.count {
            let count = try write(
                response, bodyLength: bodyLength, close: close, keepAliveHTTP10: keepAliveHTTP10, date: date,
                fieldLines: fieldLines, into: scratch)
            return Array(UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
        var invalid: InvalidField?
        let head = [UInt8](unsafeUninitializedCapacity: bound) {
            buffer, initialized in
            do throws(InvalidField) {
                initialized = try write(
                    response, bodyLength: bodyLength, close: close, keepAliveHTTP10: keepAliveHTTP10, date: date,
                    fieldLines: fieldLines, into: buffer)
            } catch {
                invalid = error
                initialized = 0
            }
        }
        if let invalid { throw invalid }
        return head
    }

    /// The most bytes `write` can produce for `response` (status line, fields, and the three we add).
    static func bound(_ response: Response, dateCount: Int) -> Int {
        var bound = 9 + 20 + 1 + response.status.reason.utf8.count + 2 + 16 + 20 + 2 + 6 + dateCount + 2 + 24 + 2
        bound += nosniff.utf8CodeUnitCount
        for field in response.headers { bound += field.name.utf8.count + field.value.utf8.count + 4 }
        return bound
    }

    /// Writes the head into `buffer` (at least `bound(response, dateCount:)` bytes) and returns its length.
    ///   - fieldLines: the response's fields as `writeFields` writes them, prepared before (`PreparedFields`).
    static func write(
        _ response: Response, bodyLength: Int, close: Bool, keepAliveHTTP10: Bool, date: [UInt8],
        fieldLines: [UInt8]? = nil, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws(InvalidField) -> Int {
        let status = response.status.code
        var out = ByteWriter(buffer)
        out.append("HTTP/1.1 ")
        out.appendDecimal(status)
        out.append(UInt8(ascii: " "))
        out.append(response.status.reason)
        out.append("\r\n")
        if let fieldLines {
            fieldLines.withUnsafeBufferPointer { out.append($0) }
        } else if let invalid = writeFields(response.headers.fields, into: &out) {
            throw invalid
        }
        // 1xx and 204 must not carry Content-Length; a 304's would describe the omitted 200 (RFC 9110 §8.6).
        if status >= 200 && status != 204 && status != 304 {
            out.append("Content-Length: ")
            out.appendDecimal(bodyLength)
            out.append("\r\n")
        }
        out.append("Date: ")
        date.withUnsafeBufferPointer { out.append($0) }
        out.append("\r\n")
        out.append(nosniff)
        if close {
            out.append("Connection: close\r\n")
        } else if keepAliveHTTP10 {
            out.append("Connection: keep-alive\r\n")
        }
        out.append("\r\n")
        return out.count
    }

    /// Writes a line per field but those the connection owns; the first invalid field, if any (what was written
    /// is then to be thrown away).
    static func writeFields(_ fields: [(name: String, value: String)], into out: inout ByteWriter) -> InvalidField? {
        for field in fields {
            if isConnectionOwned(field.name) { continue }
            // Names must be tokens, values free of CR, LF and NUL: checked while copying.
            guard !field.name.isEmpty, out.append(field.name, ifEvery: HTTPBytes.isToken) else {
                return InvalidField(name: field.name)
            }
            out.append(": ")
            guard out.append(field.value, ifEvery: { $0 != 13 && $0 != 10 && $0 != 0 }) else {
                return InvalidField(name: field.name)
            }
            out.append("\r\n")
        }
        return nil
    }

    /// The field every response carries, with its CRLF.
    static let nosniff: StaticString = "X-Content-Type-Options: nosniff\r\n"

    /// `HTTP/1.1 100 Continue` with its empty line.
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Whether a handler's field of this name is replaced by the connection's own (framing and `Date`).
    static func isConnectionOwned(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: HTTPHeaders.equal(name, "Date")
        case 10: HTTPHeaders.equal(name, "Connection") || HTTPHeaders.equal(name, "Keep-Alive")
        case 14: HTTPHeaders.equal(name, "Content-Length")
        case 17: HTTPHeaders.equal(name, "Transfer-Encoding")
        case 22: HTTPHeaders.equal(name, "X-Content-Type-Options")
        default: false
        }
    }

    /// Appends the decimal digits of a non-negative `value` without allocating a String.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var writer = ByteWriter(buffer)
            writer.appendDecimal(value)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<writer.count]))
        }
    }
}
