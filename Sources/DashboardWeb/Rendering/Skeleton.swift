import TemplateKit

/// A page rendered once for every browser with places left open for what each browser sees of its own (issue 46
/// point 1): the frame, heading, filters and pager of People, with `cards` and `summary` open. A browser's page is
/// the skeleton's runs with its own parts put in their places (`compose`), so the shared bytes are rendered, hashed
/// and deflated once per data version, not once per browser.
///
/// Places are marked in the rendering with an HTML comment no escaped value can write (`marker`), so the runs between
/// them are found in one scan.
struct Skeleton: Sendable {
    /// A shared run and the place that follows it (none after the last run).
    struct Run: Sendable {
        /// The bytes.
        let chunk: Chunk
        /// The name of the place after them.
        let place: String?
    }

    /// The runs in order.
    let runs: [Run]
    /// What else the page keeps to compose a browser's page quickly (the items each browser sees with a bit of its
    /// own), when it has anything.
    let layout: (any SkeletonLayout)?

    /// The marker of place `name` in a rendering.
    static func marker(_ name: String) -> String { "<!--place:" + name + "-->" }

    /// `fields` with each of `places` set to its marker, for the template to render where the field would go.
    static func marking(_ places: [String], in fields: TemplateObject) -> TemplateObject {
        var fields = fields
        for place in places { fields[place] = .trustedHTML(marker(place)) }
        return fields
    }

    private static let opening = Array("<!--place:".utf8)
    private static let closing = Array("-->".utf8)

    /// The skeleton of `page`, a rendering with places marked.
    init(page: [UInt8], layout: (any SkeletonLayout)? = nil) {
        var runs: [Run] = []
        var start = 0
        var index = 0
        while let found = page.firstIndex(of: Self.opening, from: index) {
            let nameStart = found + Self.opening.count
            guard let end = page.firstIndex(of: Self.closing, from: nameStart) else { break }
            let name = String(decoding: page[nameStart..<end], as: UTF8.self)
            runs.append(Run(chunk: Chunk(Array(page[start..<found])), place: name))
            start = end + Self.closing.count
            index = start
        }
        runs.append(Run(chunk: Chunk(Array(page[start...])), place: nil))
        self.runs = runs
        self.layout = layout
    }

    /// The layout, when it is a `Layout`.
    func layout<Layout: SkeletonLayout>(as type: Layout.Type) -> Layout? { layout as? Layout }

    /// A browser's page: each run, then what `fill` adds for the place after it.
    func compose(_ fill: (String, inout ComposedPage) throws -> Void) rethrows -> ComposedPage {
        var page = ComposedPage()
        for run in runs {
            page.append(run.chunk)
            if let place = run.place { try fill(place, &page) }
        }
        return page
    }

    /// What the skeleton costs a cache.
    var cost: Int { runs.reduce(0) { $0 + $1.chunk.cost } + (layout?.cost ?? 0) }
}

/// What a skeleton keeps beside its runs to put a browser's parts in their places.
protocol SkeletonLayout: Sendable {
    /// What it costs a cache, about.
    var cost: Int { get }
}

/// The items of a list that each browser sees with a bit of its own (a followed person's card), each rendered both
/// ways once, by position, with the items' positions by id.
struct ChoiceTable: SkeletonLayout {
    /// Each item as shown when not chosen.
    let plain: [Chunk]
    /// Each item as shown when chosen.
    let chosen: [Chunk]
    /// Positions by the items' ids.
    let positions: [String: Int]

    /// The positions of the chosen ids among the items, in no particular order; ids not in the list are left out.
    func positions(of ids: some Sequence<String>) -> [Int] { ids.compactMap { positions[$0] } }

    /// What the table costs a cache: its chunks (it keeps them alive, whatever the card cache lets go) and the table.
    var cost: Int { (plain + chosen).reduce(0) { $0 + $1.cost } + positions.count * 64 }
}
