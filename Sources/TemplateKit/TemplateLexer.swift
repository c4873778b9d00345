/// Splits a template source into text and tags, validating tag syntax and names.
///
/// Works on the UTF-8 bytes of the source; `{`, `}` and newline are ASCII, so they can never be part of a
/// multi-byte character.
struct TemplateLexer {
    /// The source, as UTF-8.
    let source: [UInt8]
    /// The file name used in errors ("home.html").
    let file: String

    /// The tokens of the source, with standalone tag lines already trimmed.
    func tokenize() throws(TemplateError) -> [TemplateToken] {
        var tokens: [TemplateToken] = []
        var index = 0
        var textStart = 0
        var line = 1
        var lineStart = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "{"), index + 1 < source.count, source[index + 1] == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            let location = SourceLocation(line: line, column: column(from: lineStart, to: index))
            if textStart < index {
                tokens.append(.text(textStart..<index))
            }
            let (tag, end) = try readTag(at: index, location: location)
            // Tags may span lines; keep line numbers right for what follows.
            for position in index..<end where source[position] == UInt8(ascii: "\n") {
                line += 1
                lineStart = position + 1
            }
            tokens.append(.tag(tag))
            index = end
            textStart = end
        }
        if textStart < source.count {
            tokens.append(.text(textStart..<source.count))
        }
        return trimStandaloneLines(tokens)
    }

    // MARK: - Tags

    /// Reads the tag whose `{{` is at `start`; returns it and the index just past its closing braces.
    private func readTag(at start: Int, location: SourceLocation) throws(TemplateError) -> (TemplateToken.Tag, Int) {
        var contentStart = start + 2
        let isRaw = contentStart < source.count && source[contentStart] == UInt8(ascii: "{")
        if isRaw {
            contentStart += 1
        }
        // The first `}}` closes the tag. A `{{` before it means the tag was never closed: report the opening
        // tag rather than swallowing the text up to some later `}}`.
        var close = contentStart
        while true {
            guard close + 1 < source.count else {
                throw TemplateError(file: file, at: location, .unterminatedTag)
            }
            if source[close] == UInt8(ascii: "}") && source[close + 1] == UInt8(ascii: "}") {
                break
            }
            if source[close] == UInt8(ascii: "{") && source[close + 1] == UInt8(ascii: "{") {
                throw TemplateError(file: file, at: location, .unterminatedTag)
            }
            close += 1
        }
        var end = close + 2
        if isRaw {
            guard end < source.count, source[end] == UInt8(ascii: "}") else {
                throw TemplateError(file: file, at: location, .unterminatedTag)
            }
            end += 1
        }
        let tag = try makeTag(content: trimmed(contentStart..<close), isRaw: isRaw, location: location)
        return (tag, end)
    }

    /// Interprets the trimmed inside of a tag: sigil, then name.
    private func makeTag(content: Range<Int>, isRaw: Bool, location: SourceLocation) throws(TemplateError)
        -> TemplateToken.Tag
    {
        var kind = TemplateToken.Kind.variable
        var nameRange = content
        if isRaw {
            kind = .raw
        } else if let first = content.first {
            if let sigil = Self.kind(ofSigil: source[first]) {
                kind = sigil
                nameRange = trimmed(content.dropFirst())
            }
        }
        if kind == .comment {
            return TemplateToken.Tag(kind: .comment, name: "", location: location)
        }
        guard !nameRange.isEmpty else {
            throw TemplateError(file: file, at: location, .emptyTagName)
        }
        let name = String(decoding: source[nameRange], as: UTF8.self)
        guard TemplatePath.isValid(name, allowingSlashes: kind == .partial) else {
            throw TemplateError(file: file, at: location, .invalidTagName(name))
        }
        return TemplateToken.Tag(kind: kind, name: name, location: location)
    }

    /// The tag kind a sigil byte introduces, if it is one.
    private static func kind(ofSigil byte: UInt8) -> TemplateToken.Kind? {
        switch byte {
        case UInt8(ascii: "#"): .section
        case UInt8(ascii: "^"): .inverted
        case UInt8(ascii: "/"): .close
        case UInt8(ascii: ">"): .partial
        case UInt8(ascii: "!"): .comment
        default: nil
        }
    }

    // MARK: - Helpers

    /// `range` without leading and trailing ASCII whitespace.
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && Self.isWhitespace(source[lower]) {
            lower += 1
        }
        while upper > lower && Self.isWhitespace(source[upper - 1]) {
            upper -= 1
        }
        return lower..<upper
    }

    /// Space, tab, CR or LF.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }

    /// The 1-based column of `index`: Unicode scalars since the line start (UTF-8 continuation bytes don't count).
    private func column(from lineStart: Int, to index: Int) -> Int {
        var column = 1
        for position in lineStart..<index where source[position] & 0b1100_0000 != 0b1000_0000 {
            column += 1
        }
        return column
    }
}
