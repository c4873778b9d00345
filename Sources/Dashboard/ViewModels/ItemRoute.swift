import HabitsAPI

/// A route to one item of a collection, `/<collection>/:<parameter>[/<action>]`: the one place that names both the
/// pattern the router matches and the links `Links` builds to it, so the two cannot drift apart.
struct ItemRoute: Sendable {
    /// The first path segment (`habits`).
    let collection: String
    /// The name of the item's segment in the pattern, and of the query parameter that carries `.` and `..`.
    let parameter: String
    /// A last segment naming what a form does to the item (`favorite`), if any.
    var action: String?

    /// The router's pattern, e.g. `/habits/:name/favorite`.
    var pattern: String { "/" + collection + "/:" + parameter + (action.map { "/" + $0 } ?? "") }

    /// The same item's route with `action` appended (`/habits/:name` → `/habits/:name/favorite`).
    func with(action: String) -> ItemRoute { ItemRoute(collection: collection, parameter: parameter, action: action) }

    /// The link to `value`, percent-encoded as one path segment; `.` and `..` travel in the query after an empty
    /// segment instead (`Links` says why).
    func path(_ value: String) -> String {
        let dotSegment = Links.isDotSegment(value)
        let encoded = dotSegment ? PathEncoding.encodeQueryValue(value) : PathEncoding.encodePathSegment(value)
        var pieces = ["/", collection, "/"]
        pieces.reserveCapacity(9)
        if !dotSegment { pieces.append(encoded) }
        if let action { pieces += ["/", action] }
        if dotSegment { pieces += ["?", parameter, "=", encoded] }
        return Self.joined(pieces)
    }

    /// `pieces` one after another, written into one new string: a page spells a few links for every item it shows,
    /// and appending to a `String` piece by piece was most of Home's Following rows.
    private static func joined(_ pieces: [String]) -> String {
        let count = pieces.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            for var piece in pieces {
                piece.withUTF8 { bytes in
                    guard let base = bytes.baseAddress else { return }
                    (buffer.baseAddress! + written).initialize(from: base, count: bytes.count)
                    written += bytes.count
                }
            }
            return written
        }
    }
}
