/// A broken template (found at load time) or a failed render, located as `file:line:column: reason`.
///
/// Load errors (syntax, unknown partial, partial cycle) stop the server from starting; render errors reach the
/// caller's single error-mapping point. `description` is what a developer needs to jump to the spot.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// `{{` without a matching `}}` (or `{{{` without `}}}`).
        case unterminatedTag
        /// A tag with nothing but whitespace (and maybe a sigil) inside.
        case emptyTagName
        /// A name with characters outside `A-Z a-z 0-9 _ -` (dot-separated; `/` too in partial names).
        case invalidTagName(String)
        /// `{{# name }}` or `{{^ name }}` without `{{/ name }}`; located at the opening tag.
        case unclosedSection(String)
        /// `{{/ found }}` while section `expected` is open; located at the close tag.
        case mismatchedCloseTag(expected: String, found: String)
        /// `{{/ name }}` with no section open.
        case unexpectedCloseTag(String)
        /// `{{> name }}` naming a template that does not exist.
        case unknownPartial(String)
        /// Partials that include each other in a loop, as the chain of names (first and last are equal).
        case recursivePartial([String])
        /// The file is not valid UTF-8.
        case invalidUTF8
        /// The templates directory (or a file in it) could not be read.
        case unreadable(String)
        /// `render` was asked for a template that was not loaded.
        case unknownTemplate(String)
        /// A name that resolves to nothing (strict mode only; otherwise reported to `onMissing`).
        case missingValue(String)
        /// `{{{ name }}}` on a value that is not `.trustedHTML`: raw output is only for markup we built.
        case rawValueNotTrusted(String, kind: String)
        /// `{{ name }}` on a list or object, which has no text form.
        case valueNotPrintable(String, kind: String)
    }

    /// The file as the developer knows it: "home.html", "partials/nav.html" (or a directory path).
    public var file: String
    /// 1-based line, or 0 when the error concerns the whole file.
    public var line: Int
    /// 1-based column in Unicode scalars, or 0 when the error concerns the whole file.
    public var column: Int
    /// What went wrong.
    public var reason: Reason

    /// Creates an error at a position in a file.
    public init(file: String, line: Int, column: Int, reason: Reason) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// Creates an error at a source location.
    init(file: String, at location: SourceLocation, _ reason: Reason) {
        self.init(file: file, line: location.line, column: location.column, reason: reason)
    }

    /// `file:line:column: reason`, e.g. "home.html:12:7: unclosed section 'favorites'".
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): \(reason.message)" : "\(file): \(reason.message)"
    }
}

extension TemplateError.Reason {
    /// The human-readable part of the error.
    public var message: String {
        switch self {
        case .unterminatedTag: "unterminated tag"
        case .emptyTagName: "empty tag name"
        case .invalidTagName(let name): "invalid tag name '\(name)'"
        case .unclosedSection(let name): "unclosed section '\(name)'"
        case .mismatchedCloseTag(let expected, let found):
            "mismatched close tag '\(found)', expected '\(expected)'"
        case .unexpectedCloseTag(let name): "close tag '\(name)' without an open section"
        case .unknownPartial(let name): "unknown partial '\(name)'"
        case .recursivePartial(let chain): "recursive partial: \(chain.joined(separator: " -> "))"
        case .invalidUTF8: "template is not valid UTF-8"
        case .unreadable(let detail): "cannot read templates: \(detail)"
        case .unknownTemplate(let name): "unknown template '\(name)'"
        case .missingValue(let name): "missing value '\(name)'"
        case .rawValueNotTrusted(let name, let kind):
            "raw output '{{{ \(name) }}}' needs a trustedHTML value, got \(kind)"
        case .valueNotPrintable(let name, let kind): "'\(name)' is a \(kind) and cannot be printed"
        }
    }
}
