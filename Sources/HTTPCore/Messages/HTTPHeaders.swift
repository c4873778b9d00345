/// An ordered list of header fields with case-insensitive lookup, as in NIO's `HTTPHeaders`.
///
/// Kept as pairs (not a dictionary) so repeated fields such as `Set-Cookie` survive and the parser
/// can see a duplicated `Content-Length` (RFC 9112 §6.3).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from name/value pairs, keeping their order.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal; order is the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The first value of `name` (case-insensitive), or nil.
    @inlinable public subscript(name: String) -> String? {
        fields.first { Self.equal($0.name, name) }?.value
    }

    /// Every value of `name` (case-insensitive), in order.
    @inlinable public func values(for name: String) -> [String] {
        fields.filter { Self.equal($0.name, name) }.map(\.value)
    }

    /// Whether any field is called `name`.
    @inlinable public func contains(_ name: String) -> Bool {
        fields.contains { Self.equal($0.name, name) }
    }

    /// Makes room for `count` fields, so adding them one by one allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any existing ones of the same name (use for `Set-Cookie`).
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.equal($0.name, name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { Self.equal($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison; header names are tokens, so ASCII is all there is.
    ///
    /// Inlinable, like the lookups above, so the server's per-request lookups compile into its own code as they
    /// did when this type lived in HTTPServer.
    @inlinable public static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Native strings hand out their bytes directly; every lookup of every request compares names, so the
        // byte loop matters (issue 9). Other strings take the iterator path.
        let fast = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in
                for index in 0..<a.count where !sameLetter(a[index], b[index]) { return false }
                return true
            }
        }
        if let fast, let fast { return fast }
        return zip(a.utf8, b.utf8).allSatisfy { sameLetter($0, $1) }
    }

    /// Equal bytes, or the same ASCII letter in either case.
    @inlinable @inline(__always) static func sameLetter(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
    }
}
