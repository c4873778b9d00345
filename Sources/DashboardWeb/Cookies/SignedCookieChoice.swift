import DashboardCore
import HTTPServer

/// Which of a request's copies of a signed cookie counts (issue 48 point 2). A pure rule: the values sent under the
/// expected name (and, failing those, under the legacy name) and a check in, one value (or none, or a conflict) out.
///
/// - Values whose signature does not verify are ignored, whatever their number: junk tossed in front of the real
///   cookie cannot hide it (issue 23 checked only the first four, so four junk copies did).
/// - Copies that verify to the same value are one (a browser may send the same cookie under two paths).
/// - Two copies that verify to different values are a conflict, never a guess: one of them was tossed by someone
///   else (`habits_browser=<attacker>; habits_browser=<victim>` sent the victim's favourite into the attacker's
///   settings). The settings cookie's conflict refuses the change with 400 (`ConflictingCookies`) and the page shows
///   the defaults; the last-visit cookie, which only ever holds a time this dashboard signed, takes the latest.
/// - The expected name wins over the legacy one: a browser that has its `__Host-` cookie is not moved by a tossed
///   cookie of the old name.
/// - At most `limit` copies of a name are looked at; a request with more is a conflict (the real one could be past
///   the limit), so a request costs at most `limit` signature checks a name.
enum SignedCookieChoice<Value: Equatable & Sendable>: Equatable, Sendable {
    /// No copy verifies.
    case none
    /// Exactly one value verifies; `legacy` when it came under the legacy name (to be reissued under the new one).
    case one(Value, legacy: Bool)
    /// Copies verify to different values, or too many copies were sent to check them all.
    case conflicting

    /// Most copies of one name that are checked.
    static var limit: Int { 16 }

    /// The choice among `request`'s cookies called `name`, else (none verifying) `legacyName`; `verify` gives what a
    /// value names, or nil when its signature does not check out.
    static func of(
        _ request: Request, name: String, legacyName: String?, verify: (String) -> Value?
    ) -> SignedCookieChoice {
        let chosen = among(request.cookies(named: name, limit: limit + 1), verify: verify)
        guard chosen == .none, let legacyName else { return chosen }
        switch among(request.cookies(named: legacyName, limit: limit + 1), verify: verify) {
        case .one(let value, _): return .one(value, legacy: true)
        case let other: return other
        }
    }

    /// The choice among `values`, all of one name.
    static func among(_ values: [String], verify: (String) -> Value?) -> SignedCookieChoice {
        guard values.count <= limit else { return .conflicting }
        var found: Value?
        for value in values {
            guard let named = verify(value) else { continue }
            if let found, found != named { return .conflicting }
            found = named
        }
        return found.map { .one($0, legacy: false) } ?? .none
    }

    /// The value, when exactly one counts.
    var value: Value? {
        if case .one(let value, _) = self { return value }
        return nil
    }
}
