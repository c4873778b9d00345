/// One piece of a template source as the lexer sees it: literal text or a `{{ … }}` tag.
enum TemplateToken: Equatable {
    /// Literal bytes of the source, by range (standalone-line trimming may shrink it).
    case text(Range<Int>)
    /// A tag.
    case tag(Tag)

    /// The kinds of tag, one per sigil.
    enum Kind: Equatable {
        /// `{{ name }}`: escaped output.
        case variable
        /// `{{{ name }}}`: raw output of a `.trustedHTML` value.
        case raw
        /// `{{# name }}`: section.
        case section
        /// `{{^ name }}`: inverted section.
        case inverted
        /// `{{/ name }}`: end of a section.
        case close
        /// `{{> name }}`: partial.
        case partial
        /// `{{! … }}`: comment.
        case comment

        /// Whether a tag of this kind, alone on its line, takes the whole line with it (the Mustache rule),
        /// so sections and comments do not leave blank lines in the output.
        var canStandAlone: Bool {
            switch self {
            case .variable, .raw: false
            case .section, .inverted, .close, .partial, .comment: true
            }
        }
    }

    /// A tag with its trimmed name (empty for comments) and where its `{{` starts.
    struct Tag: Equatable {
        /// Which sigil it had.
        var kind: Kind
        /// The name between the sigil and `}}`, whitespace trimmed.
        var name: String
        /// Where the opening `{{` is.
        var location: SourceLocation
    }
}
