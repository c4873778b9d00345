import Foundation

/// The one "sorted by name" order every page uses, so the same people and habits never appear in two orders.
///
/// Ignoring case and accents first (so "de Vries" sits among the D's and "Léa" among the "Lea"s), then ignoring case
/// only, then exactly, then by a tiebreak key such as the user id, so the order is total and does not depend on
/// dictionary iteration. Not locale-aware on purpose: pages must come out the same on every machine.
enum NameOrder {
    /// Whether `lhs` sorts before `rhs`; `lhsKey`/`rhsKey` break exact name ties.
    static func precedes(_ lhs: String, _ rhs: String, lhsKey: String = "", rhsKey: String = "") -> Bool {
        switch lhs.compare(rhs, options: [.caseInsensitive, .diacriticInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: break
        }
        switch lhs.compare(rhs, options: [.caseInsensitive]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: break
        }
        if lhs != rhs { return lhs < rhs }
        return lhsKey < rhsKey
    }
}
