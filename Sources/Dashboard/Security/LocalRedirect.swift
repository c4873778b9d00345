/// Where a form may send the browser back to: only a path on this site (no open redirect to another host).
enum LocalRedirect {
    /// `value` if it is a local absolute path (`/…`, not `//host` or `/\host`, no control bytes), else nil.
    static func path(_ value: String?) -> String? {
        guard let value, value.utf8.count <= 2048, value.utf8.first == UInt8(ascii: "/") else { return nil }
        let bytes = Array(value.utf8)
        // Browsers read `//evil` and `/\evil` as another host; control bytes could split the Location header.
        if bytes.count > 1 && (bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\")) { return nil }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return nil }
        return value
    }
}
