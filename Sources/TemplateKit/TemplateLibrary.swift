/// All templates of the application, parsed and linked once; renders them by name.
///
/// Every template is parsed when the library is created, so a broken template (or an unknown partial, or a
/// partial cycle) is a ``TemplateError`` at startup rather than on some request.
public struct TemplateLibrary: Sendable {
    /// The templates in name order.
    private let templates: [Template]
    /// Template name → index in `templates`.
    private let indices: [String: Int]
    /// Whether a missing name is an error (tests, debug) or renders as nothing (production).
    public let strict: Bool
    /// Told about each missing name when not strict, so production can log it.
    private let onMissing: (@Sendable (TemplateError) -> Void)?

    /// Parses templates given as name → source (names as in a directory: "home", "partials/nav").
    ///
    /// - Parameter onMissing: called for each missing name when `strict` is false (e.g. to log it).
    public init(
        sources: [String: String], strict: Bool, onMissing: (@Sendable (TemplateError) -> Void)? = nil
    ) throws(TemplateError) {
        try self.init(sources: sources.mapValues { Array($0.utf8) }, strict: strict, onMissing: onMissing)
    }

    /// Parses and links templates given as name → UTF-8 source.
    init(sources: [String: [UInt8]], strict: Bool, onMissing: (@Sendable (TemplateError) -> Void)?)
        throws(TemplateError)
    {
        var parsed: [Template] = []
        // Name order, so the same broken set always reports the same first error.
        for name in sources.keys.sorted() {
            parsed.append(try Template(name: name, source: sources[name] ?? []))
        }
        var linker = TemplateLinker(templates: parsed)
        try linker.link()
        self.templates = linker.templates
        self.indices = Dictionary(uniqueKeysWithValues: linker.templates.enumerated().map { ($1.name, $0) })
        self.strict = strict
        self.onMissing = onMissing
    }

    /// The names of all templates, sorted.
    public var templateNames: [String] { templates.map(\.name) }

    // MARK: - Rendering

    /// Renders template `name` with `value` at the bottom of the context stack.
    public func render(_ name: String, _ value: TemplateValue) throws(TemplateError) -> [UInt8] {
        var renderer = try makeRenderer(for: name)
        renderer.stack.append(value)
        try renderer.render(template: index(of: name))
        return renderer.output
    }

    /// Renders the page, then `layout` with the page's output as `content` (trusted HTML) in front of `value`,
    /// so the layout sees `{{{ content }}}` as well as every field of the page's value (title, nav state…).
    public func render(_ name: String, _ value: TemplateValue, layout: String) throws(TemplateError) -> [UInt8] {
        let page = try render(name, value)
        var renderer = try makeRenderer(for: layout, extraCapacity: page.count)
        renderer.stack.append(value)
        renderer.layoutContent = page
        renderer.layoutContentDepth = renderer.stack.count
        try renderer.render(template: index(of: layout))
        return renderer.output
    }

    // MARK: - Helpers

    /// The index of template `name`, or an unknown-template error.
    private func index(of name: String) throws(TemplateError) -> Int {
        guard let index = indices[name] else {
            throw TemplateError(file: name + ".html", line: 0, column: 0, reason: .unknownTemplate(name))
        }
        return index
    }

    /// A renderer whose buffer is reserved for the template's literal text and some room for values.
    private func makeRenderer(for name: String, extraCapacity: Int = 0) throws(TemplateError) -> TemplateRenderer {
        let template = templates[try index(of: name)]
        var renderer = TemplateRenderer(templates: templates, strict: strict, onMissing: onMissing)
        renderer.output.reserveCapacity(template.literalByteCount * 2 + extraCapacity + 1024)
        renderer.stack.reserveCapacity(8)
        return renderer
    }
}
