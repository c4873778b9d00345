/// A name in a tag, split for lookup: `user.name` → ["user", "name"]; `.` is the current item.
struct TemplatePath: Sendable, Equatable {
    /// The name as written, for error messages and matching close tags.
    let name: String
    /// The dot-separated parts; empty for `.`.
    let segments: [String]

    /// Splits a name that ``isValid(_:allowingSlashes:)`` accepted.
    init(_ name: String) {
        self.name = name
        self.segments = name == "." ? [] : name.split(separator: ".").map(String.init)
    }

    /// Whether this is `.`, the value on top of the context stack.
    var isCurrentItem: Bool { segments.isEmpty }

    /// Whether `name` is `.` or dot-separated segments of `A-Z a-z 0-9 _ -` (partial names use `/` instead of
    /// `.`, so no partial name can climb out of the templates directory).
    static func isValid(_ name: String, allowingSlashes: Bool) -> Bool {
        if !allowingSlashes && name == "." {
            return true
        }
        let separator = allowingSlashes ? UInt8(ascii: "/") : UInt8(ascii: ".")
        return name.utf8.split(separator: separator, omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment.allSatisfy(isNameByte)
        }
    }

    /// `A-Z a-z 0-9 _ -`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
