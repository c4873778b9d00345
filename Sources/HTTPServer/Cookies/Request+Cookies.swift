extension Request {
    /// Cookies from every `Cookie` field (RFC 6265 §5.4: `a=1; b=2`); when a name repeats, the first wins,
    /// since browsers send the most specific path first. Values are returned as sent (no decoding).
    ///
    /// Split on bytes, as browsers and the RFC do: splitting `Character`s would keep `;` or `=` followed by a
    /// combining mark inside a name or value (found by Fuzz/FormsFuzz).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for field in headers.values(for: "Cookie") {
            for pair in Array(field.utf8).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = String(decoding: Self.trimmed(pair[..<equals]), as: UTF8.self)
                var value = Self.trimmed(pair[(equals + 1)...])
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty, result[name] == nil else { continue }
                result[name] = String(decoding: value, as: UTF8.self)
            }
        }
        return result
    }

    /// The bytes without leading and trailing SP / HTAB.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }
}
