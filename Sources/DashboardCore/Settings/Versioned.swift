/// A browser's settings as loaded, with what a cache of pages rendered from them needs to key on (issue 9).
public struct Versioned<Value: Sendable>: Sendable {
    /// The settings.
    public var value: Value
    /// Grows with every write of this browser's file, in every process sharing the directory (the file's mtime in
    /// nanoseconds, which the store keeps strictly increasing per file); 0 when the browser has no file. It orders
    /// one browser's versions; it does not identify content across browsers (use `digest` for that).
    public var version: UInt64
    /// The first 8 bytes of the SHA-256 of the settings' canonical JSON: equal settings have equal digests, in
    /// every process, so pages rendered for one browser's settings can be shared with another's identical ones.
    public var digest: UInt64

    /// Creates a loaded value.
    public init(value: Value, version: UInt64, digest: UInt64) {
        self.value = value
        self.version = version
        self.digest = digest
    }
}

extension Versioned: Equatable where Value: Equatable {}
