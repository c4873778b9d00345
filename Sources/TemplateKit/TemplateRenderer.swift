/// Walks parsed templates and writes the output bytes, looking names up through a context stack.
///
/// One renderer serves one `render` call; it owns its buffer and stack, so a shared ``TemplateLibrary`` can
/// render on many threads at once.
struct TemplateRenderer {
    /// All templates of the library, indexed as the linker resolved partials.
    let templates: [Template]
    /// Whether a missing name is an error (tests, debug) or renders as nothing and is reported (production).
    let strict: Bool
    /// Told about each missing name when not strict.
    let onMissing: (@Sendable (TemplateError) -> Void)?
    /// The output so far.
    var output: [UInt8] = []
    /// The context stack: the rendered value at the bottom, then each section's object or list item.
    var stack: [TemplateValue] = []
    /// When rendering a layout: the page's output, seen as if an object `["content": .trustedHTML(page)]` sat on
    /// the stack just above the first `layoutContentDepth` values. Kept as bytes so that `{{{ content }}}`
    /// copies them straight into the output instead of round-tripping through a `String`.
    var layoutContent: [UInt8]?
    /// How many stack values lie below the layout's `content` (see `layoutContent`).
    var layoutContentDepth = 0

    /// The name under which a layout sees the page's output.
    static let contentName = "content"

    // MARK: - Nodes

    /// Renders a template (or partial) with the current stack.
    mutating func render(template index: Int) throws(TemplateError) {
        try render(templates[index].nodes, file: templates[index].file)
    }

    /// Renders nodes of the template in `file`.
    private mutating func render(_ nodes: [TemplateNode], file: String) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                output.append(contentsOf: bytes)
            case .variable(let path, let location):
                if let value = try lookup(path, file: file, at: location) {
                    try print(value, path: path, file: file, at: location)
                }
            case .raw(let path, let location):
                if let content = layoutContent, stack.count == layoutContentDepth, path.name == Self.contentName {
                    output.append(contentsOf: content)
                } else if let value = try lookup(path, file: file, at: location) {
                    try printRaw(value, path: path, file: file, at: location)
                }
            case .section(let path, let children, let location):
                if let value = try lookup(path, file: file, at: location) {
                    try renderSection(children, over: value, file: file)
                }
            case .invertedSection(let path, let children, let location):
                let value = try lookup(path, file: file, at: location)
                if !(value?.isTruthy ?? false) {
                    try render(children, file: file)
                }
            case .partial(_, let index, _):
                try render(template: index)
            }
        }
    }

    /// Renders a section's children once per list item, once for another truthy value, or not at all.
    private mutating func renderSection(_ children: [TemplateNode], over value: TemplateValue, file: String)
        throws(TemplateError)
    {
        switch value {
        case .list(let items):
            for item in items {
                stack.append(item)
                try render(children, file: file)
                stack.removeLast()
            }
        case .bool(let flag):
            // A flag has no fields, so pushing it would only hide the enclosing object's `.`.
            if flag {
                try render(children, file: file)
            }
        case .object, .text, .int, .trustedHTML, .null:
            if value.isTruthy {
                stack.append(value)
                try render(children, file: file)
                stack.removeLast()
            }
        }
    }

    // MARK: - Output

    /// `{{ name }}`: text (trusted or not) is escaped; numbers and flags print plainly; null prints nothing.
    private mutating func print(_ value: TemplateValue, path: TemplatePath, file: String, at location: SourceLocation)
        throws(TemplateError)
    {
        switch value {
        case .text(let string), .trustedHTML(let string):
            HTMLEscaping.append(escaping: string, to: &output)
        case .int(let number):
            output.append(contentsOf: String(number).utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null:
            break
        case .list, .object:
            throw TemplateError(file: file, at: location, .valueNotPrintable(path.name, kind: value.kindName))
        }
    }

    /// `{{{ name }}}`: only `.trustedHTML` (or null) is allowed, whatever the strictness, so untrusted text can
    /// never reach the page unescaped by accident.
    private mutating func printRaw(
        _ value: TemplateValue, path: TemplatePath, file: String, at location: SourceLocation
    ) throws(TemplateError) {
        switch value {
        case .trustedHTML(let html):
            output.append(contentsOf: html.utf8)
        case .null:
            break
        case .text, .int, .bool, .list, .object:
            throw TemplateError(file: file, at: location, .rawValueNotTrusted(path.name, kind: value.kindName))
        }
    }

    // MARK: - Lookup

    /// Finds a name: its first segment in the innermost object that has it, the rest inside that value.
    /// Missing: throws in strict mode, else reports to `onMissing` and returns nil.
    private func lookup(_ path: TemplatePath, file: String, at location: SourceLocation) throws(TemplateError)
        -> TemplateValue?
    {
        if let value = find(path) {
            return value
        }
        let error = TemplateError(file: file, at: location, .missingValue(path.name))
        if strict {
            throw error
        }
        onMissing?(error)
        return nil
    }

    /// The value of `path` on the stack, or nil.
    private func find(_ path: TemplatePath) -> TemplateValue? {
        guard let first = path.segments.first else {
            return stack.last
        }
        var found: TemplateValue?
        var index = stack.count - 1
        while index >= 0 {
            if index == layoutContentDepth - 1, first == Self.contentName, let content = layoutContent {
                found = .trustedHTML(String(decoding: content, as: UTF8.self))
                break
            }
            if case .object(let fields) = stack[index], let field = fields[first] {
                found = field
                break
            }
            index -= 1
        }
        // Later segments do not climb the stack again: `user.name` means this user's name or nothing.
        for segment in path.segments.dropFirst() {
            guard case .object(let fields) = found, let field = fields[segment] else {
                return nil
            }
            found = field
        }
        return found
    }
}
