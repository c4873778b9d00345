import DashboardCore

/// What one rendered page or fragment depends on, and so its render-cache key (issue 9): the route (with the query
/// parameters that change it), the version of the data it shows, a digest of the part of the browser's settings it
/// shows, the stale notice, and the encoding of the bytes. Pages make theirs from their `PageDeclaration`.
///
/// Pages are pure functions of these (templates are fixed at startup), so equal keys mean equal bytes, rendered once.
/// The ETag is that rendering's content hash, kept beside it: a key whose page did not change in a new version (the
/// Home introduction, a habit nobody logged since) keeps its ETag, so a live poll stays a 304 and a parked one keeps
/// waiting. With the entry in the cache, `If-None-Match` is answered without rendering anything.
struct RenderKey: Hashable, Sendable {
    /// How the bytes are encoded; one entry per encoding, each with its own ETag (RFC 9110 §8.8.3; issue 14 adds
    /// gzip, whose tag must then differ from the identity one).
    enum Encoding: UInt8, Hashable, Sendable {
        /// As rendered.
        case identity
    }

    /// The route and what in the URL changes the page, e.g. `fragment:habit:Yoga` or `people?followed=1&q=ann`.
    var route: String
    /// The version of the data shown: `Snapshot.version`, or `referenceVersion` for pages without counts.
    var content: UInt64
    /// The SHA-256 of the settings the page shows (`.none` when it shows none).
    var personal: SettingsKey
    /// The "data as of" time when the page carries the stale notice.
    var stale: String?
    /// The encoding of the bytes.
    var encoding = Encoding.identity
}
