/// The random id a browser's settings cookie carries: 16 random bytes as 22 characters of unpadded base64url.
///
/// It names the settings file `<settings-dir>/<id>.json`, so a value that is not *exactly* this form (right length,
/// only `A–Z a–z 0–9 - _`, and the canonical encoding of 16 bytes) is refused before it can become a path.
public struct BrowserID: Hashable, Sendable, CustomStringConvertible {
    /// The 22-character cookie value.
    public let rawValue: String

    /// The cookie name the id travels in.
    public static let cookieName = "habits_browser"

    /// The number of characters: ceil(16 * 8 / 6).
    static let length = 22

    /// Validates a cookie value; nil for anything that is not a canonical 22-character base64url encoding of 16 bytes.
    public init?(_ value: String) {
        let bytes = Array(value.utf8)
        guard bytes.count == Self.length else { return nil }
        var lastSixBits: UInt8 = 0
        for byte in bytes {
            guard let sixBits = Self.sixBits(of: byte) else { return nil }
            lastSixBits = sixBits
        }
        // 22 characters carry 132 bits; only 128 are data, so the last character's low 4 bits must be zero. Any other
        // value decodes to the same bytes as a canonical one, and two spellings of one id would be two files.
        guard lastSixBits & 0x0F == 0 else { return nil }
        self.rawValue = value
    }

    /// Encodes 16 bytes; used by `random(using:)` and tests.
    init(bytes: [UInt8]) {
        precondition(bytes.count == 16, "a browser id is 16 bytes")
        self.rawValue = String(decoding: Base64URL.encode(bytes), as: UTF8.self)
    }

    /// A fresh id from the system's cryptographic random source.
    public static func random() -> BrowserID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A fresh id from `generator` (tests pass a seeded one).
    public static func random(using generator: inout some RandomNumberGenerator) -> BrowserID {
        BrowserID(bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public var description: String { rawValue }

    /// Which of 64 lock stripes the id's file belongs to (`StripeLocks`): the first character's value. Ids are
    /// random and only issued ones are honoured, so the stripes fill evenly.
    var stripe: Int { rawValue.utf8.first.flatMap(Base64URL.sixBits).map(Int.init) ?? 0 }

    private static func sixBits(of byte: UInt8) -> UInt8? { Base64URL.sixBits(of: byte) }
}
