extension Request {
    /// Cookies from every `Cookie` field (RFC 6265 §5.4: `a=1; b=2`); when a name repeats, the first wins,
    /// since browsers send the most specific path first. Values are returned as sent (no decoding).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for field in headers.values(for: "Cookie") {
            for pair in field.split(separator: ";", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = Request.trimmed(pair[..<equals])
                var value = Request.trimmed(pair[pair.index(after: equals)...])[...]
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty, result[name] == nil else { continue }
                result[name] = String(value)
            }
        }
        return result
    }
}
