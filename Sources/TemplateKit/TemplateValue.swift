/// The data a template renders: an explicit tree of values built by view models, never discovered by reflection.
///
/// Sections treat values as follows: `.list` renders once per item, `.object` once with the object pushed on the
/// context stack, `.bool(true)` once, non-empty `.text`/`.trustedHTML` and non-zero `.int` once with the value
/// pushed; everything else (false, empty, zero, `.null`) renders an inverted section instead.
public enum TemplateValue: Sendable, Equatable {
    /// Untrusted text; always escaped when output with `{{ name }}`.
    case text(String)
    /// A flag for sections; prints as `true` / `false`.
    case bool(Bool)
    /// A number; prints in decimal.
    case int(Int)
    /// A list for sections (one rendering per item).
    case list([TemplateValue])
    /// Named values; a section over an object pushes it on the context stack.
    case object(TemplateObject)
    /// Markup the application built and vouches for; the only value `{{{ name }}}` accepts.
    case trustedHTML(String)
    /// An explicit absence: prints nothing, is falsy in sections, and is never a "missing value".
    case null
}

// MARK: - Truthiness

extension TemplateValue {
    /// Whether a section over this value renders at least once (and an inverted section does not render).
    var isTruthy: Bool {
        switch self {
        case .text(let string): !string.isEmpty
        case .bool(let flag): flag
        case .int(let number): number != 0
        case .list(let items): !items.isEmpty
        case .object: true
        case .trustedHTML(let html): !html.isEmpty
        case .null: false
        }
    }

    /// A short name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .text: "text"
        case .bool: "bool"
        case .int: "int"
        case .list: "list"
        case .object: "object"
        case .trustedHTML: "trustedHTML"
        case .null: "null"
        }
    }
}

// MARK: - Literals

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// A string literal is untrusted text.
    public init(stringLiteral value: String) {
        self = .text(value)
    }

    /// An interpolated string is untrusted text, whatever was interpolated into it.
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .text(String(stringInterpolation: stringInterpolation))
    }
}

extension TemplateValue: ExpressibleByBooleanLiteral {
    /// `true` / `false` become `.bool`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension TemplateValue: ExpressibleByIntegerLiteral {
    /// Integer literals become `.int`.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension TemplateValue: ExpressibleByArrayLiteral {
    /// Array literals become `.list`.
    public init(arrayLiteral elements: TemplateValue...) {
        self = .list(elements)
    }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    /// Dictionary literals become `.object`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(TemplateObject(elements))
    }
}

extension TemplateValue: ExpressibleByNilLiteral {
    /// `nil` becomes `.null`, so optional fields can be written inline.
    public init(nilLiteral: ()) {
        self = .null
    }
}

// MARK: - Conversions

extension TemplateValue {
    /// `.text(string)`, or `.null` when there is no string.
    public init(_ string: String?) {
        self = string.map { .text($0) } ?? .null
    }
}
