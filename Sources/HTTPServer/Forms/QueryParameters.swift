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
    public init(parsing encoded: Substring) {
        var pairs: [(name: String, value: String)] = []
        for piece in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: "=") {
                pairs.append(
                    (
                        name: PercentEncoding.decodeQueryComponent(piece[..<equals]),
                        value: PercentEncoding.decodeQueryComponent(piece[piece.index(after: equals)...])
                    ))
            } else {
                pairs.append((name: PercentEncoding.decodeQueryComponent(piece), value: ""))
            }
        }
        self.pairs = pairs
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
