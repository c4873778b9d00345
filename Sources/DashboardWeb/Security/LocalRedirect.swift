import DashboardCore

/// Where a form may send the browser back to: only a page of this dashboard (issue 8: the `return` field was
/// echoed into `Location`). Anything else, including a local path that is not one of our pages, gives nil and
/// the form falls back to the page it changed.
enum LocalRedirect {
    /// The pages a form can be on: a list page, or one habit or person under it.
    private static let listPages: Set<Substring> = ["habits", "people"]
    private static let singlePages: Set<Substring> = ["", "log", "habits", "people"]

    /// `value` if it names one of our pages (`/`, `/habits`, `/habits/<name>`, `/people`, `/people/<id>`,
    /// `/log`) with an optional query, every byte valid in a URL path or query (RFC 3986 §3.3, §3.4), else nil.
    /// So no other host (`//evil`, `/\evil`, `http://…`), no control byte that could split the header, and no
    /// path of ours that is not a page (`/static/…`, `/fragments/…`).
    /// A `#fragment` may follow, naming an element id of letters, digits, `-` and `_` (issue 10: the redirect returns
    /// to the item the form changed).
    static func path(_ value: String?) -> String? {
        guard let value, value.utf8.count <= 2048 else { return nil }
        if let hash = value.firstIndex(of: "#") {
            let fragment = value[value.index(after: hash)...]
            guard fragment.utf8.count <= 64, fragment.utf8.allSatisfy(isFragmentByte) else { return nil }
            guard let page = path(String(value[..<hash])) else { return nil }
            return fragment.isEmpty ? page : page + "#" + fragment
        }
        let (path, query) = split(value[...])
        if let query, !query.utf8.allSatisfy({ isPathByte($0) || $0 == UInt8(ascii: "?") }) { return nil }
        guard path.utf8.first == UInt8(ascii: "/") else { return nil }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        switch segments.count {
        case 1: guard singlePages.contains(segments[0]) else { return nil }
        case 2:
            // `/habits/?name=..` is how `Links` names a habit called `.` or `..` (browsers drop dot segments).
            let name = segments[1]
            guard listPages.contains(segments[0]), isPageName(name) || (name.isEmpty && query != nil) else {
                return nil
            }
        default: return nil
        }
        return value
    }

    /// The path and the query after the first `?`, if any.
    private static func split(_ value: Substring) -> (path: Substring, query: Substring?) {
        guard let question = value.firstIndex(of: "?") else { return (value, nil) }
        return (value[..<question], value[value.index(after: question)...])
    }

    /// A habit name or person id segment: non-empty, not a dot segment, pchar bytes with well-formed escapes.
    private static func isPageName(_ segment: Substring) -> Bool {
        guard !segment.isEmpty, segment != ".", segment != ".." else { return false }
        let bytes = Array(segment.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
            } else {
                guard isPathByte(bytes[index]), bytes[index] != UInt8(ascii: "/") else { return false }
                index += 1
            }
        }
        return true
    }

    /// pchar and "/" (RFC 3986 §3.3): unreserved, sub-delims, ":", "@", "%" (escapes are checked separately).
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()*+,;=:@%/".utf8.contains(byte)
        }
    }

    private static func isFragmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
