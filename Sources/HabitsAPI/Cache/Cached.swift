import Foundation

/// A value from the shared cache, with when it was fetched and whether the upstream has since failed to refresh it.
public struct Cached<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// When the upstream answered with it, on the wall clock: shown to people ("data as of"), never used for ages.
    public var asOf: Date
    /// True when the last refresh failed, or the value is older than the stale-while-revalidate bound
    /// (`CachePolicy.staleWhileRevalidate`): pages show a "data as of" notice. An expired value served at once while
    /// a refresh runs is not flagged: it is at most the bound old and `asOf` still says exactly when it was fetched.
    public var isStale: Bool

    /// Creates a cached value.
    public init(value: Value, asOf: Date, isStale: Bool) {
        self.value = value
        self.asOf = asOf
        self.isStale = isStale
    }

    /// The same freshness facts with a transformed value.
    public func map<T: Sendable>(_ transform: (Value) throws -> T) rethrows -> Cached<T> {
        Cached<T>(value: try transform(value), asOf: asOf, isStale: isStale)
    }
}
