import Testing

@testable import HTTPServer

/// The parser's byte classes against the character lists of the RFCs they come from.
@Suite struct HTTPBytesTests {
    static let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    static let digits = "0123456789"

    /// RFC 9110 §5.6.2 tchar.
    @Test func tokenBytesAreExactlyTheTcharsOfRFC9110() {
        let tchars = Set(("!#$%&'*+-.^_`|~" + Self.letters + Self.digits).utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPBytes.isToken(byte) == tchars.contains(byte), "byte \(byte)")
        }
    }

    /// RFC 3986 reg-name / IP-literal / port characters plus "%" of pct-encoded.
    @Test func hostBytesAreExactlyTheURIHostCharacters() {
        let hostBytes = Set(("-._~!$&'()*+,;=:[]%" + Self.letters + Self.digits).utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPBytes.isHost(byte) == hostBytes.contains(byte), "byte \(byte)")
        }
    }

    @Test func fieldValueBytesExcludeControlsOtherThanTabAndDelete() {
        for byte in UInt8.min...UInt8.max {
            let expected = byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
            #expect(HTTPBytes.isFieldValue(byte) == expected, "byte \(byte)")
        }
    }

    @Test func hexDigitsDecodeInBothCasesAndNothingElse() {
        let values = Dictionary(uniqueKeysWithValues: "0123456789abcdef".utf8.enumerated().map { ($1, $0) })
            .merging(zip("ABCDEF".utf8, 10...15)) { a, _ in a }
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPBytes.hexValue(byte) == values[byte], "byte \(byte)")
        }
    }
}
