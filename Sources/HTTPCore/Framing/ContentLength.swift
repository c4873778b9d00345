/// `Content-Length = 1*DIGIT` (RFC 9110 §8.6): the one reading of a length, for requests and responses alike.
public enum ContentLength {
    /// The length `value` (one field value, or one element of a list) states, saturated at `Int.max`; nil when it
    /// is not a plain run of ASCII digits (empty, a sign, spaces, a list).
    ///
    /// Saturating rather than failing: a huge but well-formed length is "larger than the body limit", which the
    /// caller reports as such (413 for a request, "too large" for a response), not a syntax error.
    public static func parse(_ value: some Collection<UInt8>) -> Int? {
        guard !value.isEmpty else { return nil }
        var length = 0
        for byte in value {
            let digit = byte &- 0x30
            guard digit <= 9 else { return nil }
            let (times10, overflow1) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit))
            length = overflow1 || overflow2 ? Int.max : sum
        }
        return length
    }
}
