/// The named values of a `TemplateValue.object`: fields in the order they were written, looked up from the last.
///
/// A page's objects have a dozen fields or fewer, are built once per render and read a few times each, so a list beats
/// a dictionary: building one hashes nothing and allocates once, and a look-up compares a handful of short names
/// (Swift's small strings compare as two words). Building Home's dictionaries, hashing their keys and freeing them was
/// a third of its render (issue 21).
///
/// A name written twice keeps its last value, as a dictionary literal with a repeated key did: look-ups and
/// ``merging(_:)`` read from the end, and the subscript's setter replaces.
public struct TemplateObject: Sendable {
    /// Each name and its value, in the order written (a literal's own array, kept as it is).
    @usableFromInline var fields: [(String, TemplateValue)]

    /// An object with no fields.
    @inlinable public init() { fields = [] }

    /// The fields as written; a repeated name keeps its last value.
    @inlinable public init(_ fields: [(String, TemplateValue)]) { self.fields = fields }

    /// The value named `name`, or nil; setting replaces the value (or adds the name), setting nil removes it.
    public subscript(name: String) -> TemplateValue? {
        get {
            var index = fields.count - 1
            while index >= 0 {
                if fields[index].0 == name { return fields[index].1 }
                index -= 1
            }
            return nil
        }
        set {
            fields.removeAll { $0.0 == name }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// This object's fields and then `other`'s, so that `other` wins where both name a value.
    public func merging(_ other: TemplateObject) -> TemplateObject {
        var merged = self
        merged.fields.reserveCapacity(fields.count + other.fields.count)
        merged.fields.append(contentsOf: other.fields)
        return merged
    }

    /// The names that have a value, each once, in the order they were first written.
    public var names: [String] {
        var names: [String] = []
        for (name, _) in fields where !names.contains(name) { names.append(name) }
        return names
    }
}

extension TemplateObject: ExpressibleByDictionaryLiteral {
    /// The fields as written; a repeated name keeps its last value.
    @inlinable public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        fields = elements
    }
}

extension TemplateObject: Equatable {
    /// Equal when both name the same values, whatever the order they were written in (as dictionaries compare).
    public static func == (lhs: TemplateObject, rhs: TemplateObject) -> Bool {
        let names = lhs.names
        return names.count == rhs.names.count && names.allSatisfy { lhs[$0] == rhs[$0] }
    }
}
