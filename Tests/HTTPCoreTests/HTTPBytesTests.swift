import Testing

@testable import HTTPCore

/// The parsers' byte classes against the character lists of the RFCs they come from.
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

    @Test func digitsAreExactlyZeroToNine() {
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPBytes.isDigit(byte) == Self.digits.utf8.contains(byte), "byte \(byte)")
        }
    }

    @Test func hexDigitsDecodeInBothCasesAndNothingElse() {
        let values = Dictionary(uniqueKeysWithValues: "0123456789abcdef".utf8.enumerated().map { ($1, $0) })
            .merging(zip("ABCDEF".utf8, 10...15)) { a, _ in a }
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPBytes.hexValue(byte) == values[byte], "byte \(byte)")
        }
    }

    /// The word-at-a-time scans must find a special byte at every offset and alignment, including the last byte
    /// of a word and the byte-at-a-time tail.
    @Test func wordScansFindASpecialByteAtEveryPosition() {
        for length in 0...40 {
            for position in 0..<max(length, 1) {
                for special: UInt8 in [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if position < length { bytes[position] = special }
                    bytes.withUnsafeBufferPointer { buffer in
                        let expectedCR = position < length && special <= 0x0D ? position : length
                        #expect(HTTPBytes.firstByte(below: 0x0E, in: buffer, from: 0, to: length) == expectedCR)
                        let valid = position >= length || special == 0x09
                        #expect(HTTPBytes.allFieldValue(buffer, from: 0, to: length) == valid)
                    }
                }
            }
        }
    }

    @Test func wordScansPassOverObsTextAndHighBytes() {
        let bytes: [UInt8] = [0x80, 0xFF, 0xA0, 0x7E, 0x20, 0x21, 0xC3, 0xA9, 0x8D, 0x8A, 0x9F, 0xFE]
        bytes.withUnsafeBufferPointer { buffer in
            #expect(HTTPBytes.firstByte(below: 0x0E, in: buffer, from: 0, to: buffer.count) == buffer.count)
            #expect(HTTPBytes.allFieldValue(buffer, from: 0, to: buffer.count))
        }
    }
}
