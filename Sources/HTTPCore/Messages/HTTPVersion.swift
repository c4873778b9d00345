/// The protocol version of a message; only HTTP/1.0 and HTTP/1.1 are spoken here.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// Major version digit.
    public var major: Int
    /// Minor version digit.
    public var minor: Int
    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }
    public var description: String { "HTTP/\(major).\(minor)" }
    /// HTTP/1.0
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// Whether connections persist by default: HTTP/1.1 and later (RFC 9112 §9.3).
    @inlinable public var persistsByDefault: Bool { major > 1 || (major == 1 && minor >= 1) }

    /// Parses `HTTP-version = HTTP-name "/" DIGIT "." DIGIT` (RFC 9112 §2.3) from exactly `bytes[range]`, or nil.
    /// The name is case-sensitive. Which versions are spoken is the caller's decision, not the grammar's.
    @inlinable public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> HTTPVersion? {
        let start = range.lowerBound
        guard range.count == 8, bytes[start] == 0x48, bytes[start + 1] == 0x54, bytes[start + 2] == 0x54,
            bytes[start + 3] == 0x50, bytes[start + 4] == HTTPBytes.slash, bytes[start + 6] == 0x2E,
            case let major = bytes[start + 5] &- 0x30, major <= 9,
            case let minor = bytes[start + 7] &- 0x30, minor <= 9
        else { return nil }
        return HTTPVersion(major: Int(major), minor: Int(minor))
    }
}
