/// The Mustache "standalone line" rule: a section, inverted, close, partial or comment tag that is alone on its
/// line (only spaces or tabs around it) removes that whole line, so block tags leave no blank lines behind.
extension TemplateLexer {
    /// Returns `tokens` with the text around standalone tags trimmed.
    func trimStandaloneLines(_ tokens: [TemplateToken]) -> [TemplateToken] {
        // Decide on the original ranges first, then trim: a text between two standalone tags is trimmed on both
        // sides, and trimming for one tag must not change what the next tag sees.
        var standalone = [Bool](repeating: false, count: tokens.count)
        for (index, token) in tokens.enumerated() {
            if case .tag(let tag) = token, tag.kind.canStandAlone {
                standalone[index] = isBlankBefore(tokens, index) && isBlankAfter(tokens, index)
            }
        }
        var result: [TemplateToken] = []
        result.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() {
            guard case .text(let range) = token else {
                result.append(token)
                continue
            }
            var lower = range.lowerBound
            var upper = range.upperBound
            if index > 0 && standalone[index - 1] {
                // Drop the rest of the tag's line, including its newline.
                lower = firstNewline(in: range).map { $0 + 1 } ?? range.upperBound
            }
            if index + 1 < tokens.count && standalone[index + 1] {
                // Drop the indentation before the tag.
                upper = lastNewline(in: range).map { $0 + 1 } ?? range.lowerBound
            }
            if lower < upper {
                result.append(.text(lower..<upper))
            }
        }
        return result
    }

    /// Whether only spaces or tabs precede token `index` on its line.
    private func isBlankBefore(_ tokens: [TemplateToken], _ index: Int) -> Bool {
        guard index > 0 else {
            return true
        }
        guard case .text(let range) = tokens[index - 1] else {
            return false
        }
        if let newline = lastNewline(in: range) {
            return isBlank(newline + 1..<range.upperBound)
        }
        // No newline: the text must start the template, or another tag shares the line.
        return index - 1 == 0 && isBlank(range)
    }

    /// Whether only spaces or tabs follow token `index` up to the end of its line (or of the template).
    private func isBlankAfter(_ tokens: [TemplateToken], _ index: Int) -> Bool {
        guard index + 1 < tokens.count else {
            return true
        }
        guard case .text(let range) = tokens[index + 1] else {
            return false
        }
        if let newline = firstNewline(in: range) {
            return isBlank(range.lowerBound..<newline)
        }
        return index + 1 == tokens.count - 1 && isBlank(range)
    }

    /// Whether the bytes are only spaces, tabs or a carriage return.
    private func isBlank(_ range: Range<Int>) -> Bool {
        source[range].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    /// The index of the first newline in `range`.
    private func firstNewline(in range: Range<Int>) -> Int? {
        source[range].firstIndex(of: UInt8(ascii: "\n"))
    }

    /// The index of the last newline in `range`.
    private func lastNewline(in range: Range<Int>) -> Int? {
        source[range].lastIndex(of: UInt8(ascii: "\n"))
    }
}
