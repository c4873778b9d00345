import HTTPServer

extension ResponseParser {
    /// Splits a head (without its final CRLFCRLF) on CRLF. A bare CR or LF stays inside a line and fails there.
    static func splitLines(_ head: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        var index = 0
        while index + 1 < head.count {
            if head[index] == 13 && head[index + 1] == 10 {
                lines.append(head[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(head[lineStart...])
        return lines
    }

    /// `HTTP/1.x NNN [reason]` (RFC 9112 §4); a missing reason is tolerated, as the RFC asks of clients.
    static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(ResponseParseError) -> (HTTPVersion, Int) {
        let bytes = Array(line)
        guard bytes.count >= 12, bytes[0..<5].elementsEqual("HTTP/".utf8), isDigit(bytes[5]),
            bytes[6] == UInt8(ascii: "."), isDigit(bytes[7]), bytes[8] == UInt8(ascii: " "),
            isDigit(bytes[9]), isDigit(bytes[10]), isDigit(bytes[11])
        else { throw .malformedStatusLine }
        if bytes.count > 12 {
            guard bytes[12] == UInt8(ascii: " "), bytes[13...].allSatisfy(isFieldValueByte) else {
                throw .malformedStatusLine
            }
        }
        let version = HTTPVersion(major: Int(bytes[5] - 48), minor: Int(bytes[7] - 48))
        guard version.major == 1 else { throw .unsupportedVersion }
        let code = Int(bytes[9] - 48) * 100 + Int(bytes[10] - 48) * 10 + Int(bytes[11] - 48)
        guard code >= 100 else { throw .malformedStatusLine }
        return (version, code)
    }

    /// `name: value` with a token name, no space before the colon and no control bytes; nil if malformed
    /// (an obs-fold line starts with a space, so it fails the token check).
    static func parseField(_ line: ArraySlice<UInt8>) -> (String, String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[line.startIndex..<colon].allSatisfy(isTokenByte)
        else { return nil }
        let rawValue = line[(colon + 1)...]
        guard rawValue.allSatisfy(isFieldValueByte) else { return nil }
        let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
        let value = String(decoding: rawValue, as: UTF8.self).trimmingASCIIWhitespace()
        return (name, value)
    }

    /// `1*HEXDIG [ BWS ";" ext ]` (RFC 9112 §7.1); extensions are ignored.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(ResponseParseError) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let value = hexValue(line[index]) {
            digits += 1
            if digits > 15 { throw .invalidChunk }  // 15 hex digits already exceed any body limit
            size = size * 16 + value
            index += 1
        }
        guard digits > 0 else { throw .invalidChunk }
        while index < line.endIndex, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") {
            index += 1
        }
        if index < line.endIndex {
            guard line[index] == UInt8(ascii: ";"), line[index...].allSatisfy(isFieldValueByte) else {
                throw .invalidChunk
            }
        }
        return size
    }

    /// HTTP/1.1 keeps the connection unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    static func keepsAlive(version: HTTPVersion, headers: HTTPHeaders) -> Bool {
        let options = Set(
            headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map {
                $0.trimmingASCIIWhitespace().lowercased()
            })
        if options.contains("close") { return false }
        return version.minor >= 1 || options.contains("keep-alive")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 65...70: Int(byte - 55)
        case 97...102: Int(byte - 87)
        default: nil
        }
    }

    /// tchar (RFC 9110 §5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// VCHAR, obs-text, SP, HTAB: no CR, LF, NUL or other controls (RFC 9110 §5.5).
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 9 || (byte >= 32 && byte != 127)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's OWS); no Foundation needed.
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 32 || bytes[lower] == 9 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 32 || bytes[upper - 1] == 9 { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
