/// Decoded `name=value` pairs from a query string or an `application/x-www-form-urlencoded` body.
///
/// Order and repeats are kept (`?ids=a&ids=b`); the subscript gives the first value.
public struct QueryParameters: Sendable, Equatable, Sequence {
    /// The pairs in the order they appeared.
    public private(set) var pairs: [(name: String, value: String)]

    /// Creates parameters from decoded pairs.
    public init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// Parses `a=1&b=two+words&c` (WHATWG urlencoded parsing: `+` is space, a name without `=` has value "").
    ///
    /// Split on bytes, as the WHATWG parser does: splitting `Character`s would keep a `&` or `=` followed by a
    /// combining mark inside a value (found by Fuzz/FormsFuzz).
    public init(parsing encoded: Substring) {
        var pairs: [(name: String, value: String)] = []
        let utf8 = encoded.utf8
        for piece in utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                pairs.append(
                    (
                        name: Self.decode(piece[..<equals]),
                        value: Self.decode(piece[utf8.index(after: equals)...])
                    ))
            } else {
                pairs.append((name: Self.decode(piece), value: ""))
            }
        }
        self.pairs = pairs
    }

    /// One name or value: `+` is a space, `%XX` a byte, invalid UTF-8 becomes U+FFFD.
    private static func decode(_ bytes: Substring.UTF8View) -> String {
        PercentEncoding.decode(bytes, plusAsSpace: true, lenient: true) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// Whether there are no pairs.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Iterates over the pairs in order.
    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        pairs.makeIterator()
    }

    /// Encodes the pairs back to `a=1&b=two+words`.
    public var encoded: String {
        pairs.map {
            PercentEncoding.encodeQueryComponent($0.name) + "=" + PercentEncoding.encodeQueryComponent($0.value)
        }
        .joined(separator: "&")
    }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0 == $1 }
    }
}
