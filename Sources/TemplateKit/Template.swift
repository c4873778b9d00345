/// One parsed template of a library.
struct Template: Sendable {
    /// The name used to render it ("home", "partials/nav").
    let name: String
    /// The file name used in errors ("home.html").
    let file: String
    /// The parsed tree.
    var nodes: [TemplateNode]
    /// Bytes of literal text, a lower bound for the output size (used to reserve the output buffer).
    let literalByteCount: Int

    /// Lexes and parses `source`.
    init(name: String, source: [UInt8]) throws(TemplateError) {
        self.name = name
        self.file = name + ".html"
        let tokens = try TemplateLexer(source: source, file: file).tokenize()
        self.nodes = try TemplateParser(source: source, file: file).parse(tokens)
        self.literalByteCount = Self.literalBytes(in: nodes)
    }

    /// Sums the literal text of a tree (each section counted once).
    private static func literalBytes(in nodes: [TemplateNode]) -> Int {
        var count = 0
        for node in nodes {
            switch node {
            case .text(let bytes): count += bytes.count
            case .section(_, let children, _), .invertedSection(_, let children, _): count += literalBytes(in: children)
            case .variable, .raw, .partial: break
            }
        }
        return count
    }
}
