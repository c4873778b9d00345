/// The parsed form of a template: a tree the renderer walks without re-reading any source.
enum TemplateNode: Sendable {
    /// Literal bytes, copied to the output as they are.
    case text([UInt8])
    /// `{{ name }}`: the value, HTML-escaped.
    case variable(TemplatePath, SourceLocation)
    /// `{{{ name }}}`: a `.trustedHTML` value, unescaped.
    case raw(TemplatePath, SourceLocation)
    /// `{{# name }}…{{/ name }}`.
    case section(TemplatePath, [TemplateNode], SourceLocation)
    /// `{{^ name }}…{{/ name }}`.
    case invertedSection(TemplatePath, [TemplateNode], SourceLocation)
    /// `{{> name }}`; `index` is the partial's position in the library, filled in when the library links
    /// its templates (-1 until then), so rendering never looks a partial up by name.
    case partial(name: String, index: Int, SourceLocation)
}
