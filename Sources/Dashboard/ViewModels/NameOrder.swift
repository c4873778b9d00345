import Foundation

/// The one "sorted by name" order every page uses, so the same people and habits never appear in two orders.
///
/// Case-insensitive first (so "de Vries" sits among the D's), then case-sensitive, then by a tiebreak key such as the
/// user id, so the order is total and does not depend on dictionary iteration. Not locale-aware on purpose: pages
/// must come out the same on every machine.
enum NameOrder {
    /// Whether `lhs` sorts before `rhs`; `lhsKey`/`rhsKey` break exact name ties.
    static func precedes(_ lhs: String, _ rhs: String, lhsKey: String = "", rhsKey: String = "") -> Bool {
        switch lhs.compare(rhs, options: [.caseInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame:
            if lhs != rhs { return lhs < rhs }
            return lhsKey < rhsKey
        }
    }
}
