import Foundation

/// People's names as the People search matches them, indexed once per snapshot (issue 23: four clients asking for
/// `?q=` spellings of a 45 000-person People scanned every name with Foundation's folding compare per request).
///
/// A query matches anywhere in a name, ignoring case and accents ("zoe" finds "Zoë"). Names are folded once; each
/// folded name's three-scalar sequences (trigrams) point back to it, so a query of three or more scalars checks
/// only the names holding its rarest trigram. Shorter queries check the folded names (no folding per name).
public struct NameSearchIndex: Sendable {
    /// Each name folded, in the order given.
    private let folded: [String]
    /// Positions in `folded` of the names holding each trigram, ascending.
    private let postings: [UInt64: [Int32]]

    /// Indexes `names`; `matches` answers positions in this order.
    init(names: [String]) {
        folded = names.map(Self.fold)
        var postings: [UInt64: [Int32]] = [:]
        for (position, name) in folded.enumerated() {
            for trigram in Set(Self.trigrams(Array(name.unicodeScalars))) {
                postings[trigram, default: []].append(Int32(position))
            }
        }
        self.postings = postings
    }

    /// The positions of the names `query` matches (all of them for an empty query), ascending.
    public func matches(_ query: String) -> [Int] {
        // Every unfiltered People asks with no query; folding it through Foundation was a fifth of the page's view.
        let needle = query.isEmpty ? "" : Self.fold(query)
        guard !needle.isEmpty else { return Array(folded.indices) }
        let scalars = Array(needle.unicodeScalars)
        guard scalars.count >= 3 else { return folded.indices.filter { folded[$0].contains(needle) } }
        var rarest: [Int32] = []
        for (index, trigram) in Self.trigrams(scalars).enumerated() {
            guard let list = postings[trigram] else { return [] }
            if index == 0 || list.count < rarest.count { rarest = list }
        }
        return rarest.lazy.map(Int.init).filter { folded[$0].contains(needle) }
    }

    /// The form names and queries are compared in: case and accents folded, as `range(of:options:)` would.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func trigrams(_ scalars: [Unicode.Scalar]) -> [UInt64] {
        guard scalars.count >= 3 else { return [] }
        return (0...(scalars.count - 3)).map { start in
            UInt64(scalars[start].value) << 42 | UInt64(scalars[start + 1].value) << 21
                | UInt64(scalars[start + 2].value)
        }
    }
}
