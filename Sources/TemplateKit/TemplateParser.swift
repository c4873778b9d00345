/// Turns lexer tokens into a ``TemplateNode`` tree, checking that sections are closed in order.
struct TemplateParser {
    /// The source the tokens' text ranges point into.
    let source: [UInt8]
    /// The file name used in errors ("home.html").
    let file: String

    /// An open section and what has been parsed inside it so far.
    private struct Frame {
        var tag: TemplateToken.Tag
        var children: [TemplateNode] = []
    }

    /// Parses the tokens into the template's top-level nodes.
    func parse(_ tokens: [TemplateToken]) throws(TemplateError) -> [TemplateNode] {
        var top: [TemplateNode] = []
        var open: [Frame] = []

        func append(_ node: TemplateNode) {
            if open.isEmpty {
                top.append(node)
            } else {
                open[open.count - 1].children.append(node)
            }
        }

        for token in tokens {
            let tag: TemplateToken.Tag
            switch token {
            case .text(let range):
                append(.text(Array(source[range])))
                continue
            case .tag(let value):
                tag = value
            }
            switch tag.kind {
            case .variable:
                append(.variable(TemplatePath(tag.name), tag.location))
            case .raw:
                append(.raw(TemplatePath(tag.name), tag.location))
            case .partial:
                append(.partial(name: tag.name, index: -1, tag.location))
            case .comment:
                break
            case .section, .inverted:
                open.append(Frame(tag: tag))
            case .close:
                guard let frame = open.popLast() else {
                    throw TemplateError(file: file, at: tag.location, .unexpectedCloseTag(tag.name))
                }
                guard frame.tag.name == tag.name else {
                    throw TemplateError(
                        file: file, at: tag.location, .mismatchedCloseTag(expected: frame.tag.name, found: tag.name))
                }
                let path = TemplatePath(frame.tag.name)
                if frame.tag.kind == .section {
                    append(.section(path, frame.children, frame.tag.location))
                } else {
                    append(.invertedSection(path, frame.children, frame.tag.location))
                }
            }
        }
        // Report the innermost unclosed section: it is the one whose close tag is missing or misplaced.
        if let frame = open.last {
            throw TemplateError(file: file, at: frame.tag.location, .unclosedSection(frame.tag.name))
        }
        return top
    }
}
