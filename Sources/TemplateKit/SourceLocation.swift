/// A position in a template source: 1-based line, and 1-based column counted in Unicode scalars.
struct SourceLocation: Sendable, Equatable {
    /// The 1-based line.
    var line: Int
    /// The 1-based column, in Unicode scalars (not bytes, so a column matches what an editor shows for most text).
    var column: Int
}
