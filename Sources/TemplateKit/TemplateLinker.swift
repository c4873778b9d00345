/// Resolves `{{> name }}` tags to library indices at load time, refusing unknown partials and partial cycles.
///
/// Doing this at load time means a typo in a partial name stops the server from starting, and rendering never
/// looks a partial up by name or recurses without end.
struct TemplateLinker {
    /// The templates, sorted by name; their partial tags are rewritten in place.
    var templates: [Template]

    /// Rewrites every partial tag with its index, then checks that no partial includes itself.
    mutating func link() throws(TemplateError) {
        let indices = Dictionary(uniqueKeysWithValues: templates.enumerated().map { ($1.name, $0) })
        for position in templates.indices {
            let file = templates[position].file
            templates[position].nodes = try Self.resolve(templates[position].nodes, indices: indices, file: file)
        }
        try checkForCycles()
    }

    /// Returns `nodes` with each partial's index filled in.
    private static func resolve(_ nodes: [TemplateNode], indices: [String: Int], file: String) throws(TemplateError)
        -> [TemplateNode]
    {
        var result: [TemplateNode] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .partial(let name, _, let location):
                guard let index = indices[name] else {
                    throw TemplateError(file: file, at: location, .unknownPartial(name))
                }
                result.append(.partial(name: name, index: index, location))
            case .section(let path, let children, let location):
                result.append(.section(path, try resolve(children, indices: indices, file: file), location))
            case .invertedSection(let path, let children, let location):
                result.append(.invertedSection(path, try resolve(children, indices: indices, file: file), location))
            case .text, .variable, .raw:
                result.append(node)
            }
        }
        return result
    }

    // MARK: - Cycles

    /// A partial tag: which template it includes and where the tag is.
    private struct Edge {
        var target: Int
        var location: SourceLocation
    }

    /// Depth-first search over the include graph; the first back edge (in name order) is the error.
    private func checkForCycles() throws(TemplateError) {
        let edges = templates.map { Self.edges(in: $0.nodes) }
        enum Mark { case unvisited, onPath, done }
        var marks = [Mark](repeating: .unvisited, count: templates.count)
        var path: [Int] = []

        func visit(_ index: Int) throws(TemplateError) {
            marks[index] = .onPath
            path.append(index)
            for edge in edges[index] {
                switch marks[edge.target] {
                case .onPath:
                    let start = path.firstIndex(of: edge.target) ?? 0
                    let chain = (path[start...] + [edge.target]).map { templates[$0].name }
                    throw TemplateError(file: templates[index].file, at: edge.location, .recursivePartial(chain))
                case .unvisited:
                    try visit(edge.target)
                case .done:
                    break
                }
            }
            path.removeLast()
            marks[index] = .done
        }

        for index in templates.indices where marks[index] == .unvisited {
            try visit(index)
        }
    }

    /// The partial tags in a tree, in source order.
    private static func edges(in nodes: [TemplateNode]) -> [Edge] {
        var result: [Edge] = []
        for node in nodes {
            switch node {
            case .partial(_, let index, let location): result.append(Edge(target: index, location: location))
            case .section(_, let children, _), .invertedSection(_, let children, _): result += edges(in: children)
            case .text, .variable, .raw: break
            }
        }
        return result
    }
}
