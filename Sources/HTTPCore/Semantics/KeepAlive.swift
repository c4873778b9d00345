/// Whether a connection persists after a message (RFC 9112 §9.3): one rule, applied by the server to requests and
/// by the client to responses.
public enum KeepAlive {
    /// HTTP/1.1 and later persist unless a `Connection` field lists `close`; HTTP/1.0 persists only when one lists
    /// `keep-alive`. Options are matched without regard to ASCII case, over every `Connection` field line, and
    /// `close` wins over `keep-alive`. Scans the field bytes in place: the server asks this of every request.
    public static func persists(version: HTTPVersion, headers: HTTPHeaders) -> Bool {
        var keepAlive = false
        for field in headers.fields where HTTPHeaders.equal(field.name, "Connection") {
            var value = field.value
            let (close, alive) = value.withUTF8 { bytes in
                (listContains(bytes, "close"), listContains(bytes, "keep-alive"))
            }
            if close { return false }
            keepAlive = keepAlive || alive
        }
        return version.persistsByDefault || keepAlive
    }

    /// Whether the list `bytes` (`HTTPList`) has an element equal to the lowercase `option` in any ASCII case.
    static func listContains(_ bytes: UnsafeBufferPointer<UInt8>, _ option: StaticString) -> Bool {
        var found = false
        HTTPList.forEachElement(in: bytes) { element in
            guard !found, element.count == option.utf8CodeUnitCount else { return }
            let expected = option.utf8Start
            found = element.indices.allSatisfy { HTTPHeaders.sameLetter(bytes[$0], expected[$0 - element.lowerBound]) }
        }
        return found
    }
}
