import Foundation

/// When a settings file was last written and last used, kept in the file's own timestamps, so every process sharing
/// the directory sees the same facts, they survive restarts, and no index has to be kept in step with the files.
///
/// - mtime is the last write. The store sets it itself, strictly above the previous write's, so it doubles as the
///   settings' monotonic version.
/// - atime is the last read, also set by the store (explicitly, with `utimensat`), so it means the same on every
///   mount: the kernel's own atime updates (`relatime`, `noatime`) are not relied on.
/// - A file whose atime is not after its mtime is *pristine*: written once, never read since, never written again.
///   That is what a minting script leaves behind (it never sends the cookie back), and what eviction drops first
///   (issue 8). A second write keeps a file out of that class by setting atime one nanosecond after mtime; a real
///   browser's first read (the page after the 303) does the same.
struct FileUsage: Equatable, Sendable {
    /// The mtime, in nanoseconds since 1970.
    var modified: Int64
    /// The atime, in nanoseconds since 1970.
    var accessed: Int64

    /// Written once and never read or written again.
    var isPristine: Bool { accessed <= modified }

    /// The last read or write.
    var lastUsed: Int64 { max(modified, accessed) }

    /// A read marks the file when it is pristine, or when its last mark is older than `interval` (so a busy browser
    /// costs one metadata write per interval, not one per page).
    func needsReadMark(now: Int64, interval: Int64) -> Bool {
        isPristine || now - accessed >= interval
    }

    /// The atime a read at `now` sets: never at or before mtime, so the mark always counts as a read.
    func readMark(now: Int64) -> Int64 {
        max(now, modified + 1)
    }

    /// The times a write at `now` gives the new file: mtime strictly above the replaced file's (a monotonic version
    /// even if the clock steps back), and atime equal to it for a first write, one nanosecond later for a rewrite.
    static func forWrite(now: Int64, replacing previous: FileUsage?) -> FileUsage {
        let modified = max(now, (previous?.modified ?? 0) + 1)
        return FileUsage(modified: modified, accessed: previous == nil ? modified : modified + 1)
    }

    /// A read refreshes the read mark at most this often (one metadata write, or one row update, per browser per
    /// hour): the precision of "last used" for expiry and eviction, in both backends.
    static var readMarkInterval: Int64 { 3600 * 1_000_000_000 }

    /// Nanoseconds since 1970 of a wall-clock reading: the unit of `modified` and `accessed`.
    static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000_000).rounded())
    }

    /// Eviction order (issue 8): pristine files first, then least recently used, then oldest write.
    static func evictsBefore(_ left: FileUsage, _ right: FileUsage) -> Bool {
        if left.isPristine != right.isPristine { return left.isPristine }
        if left.lastUsed != right.lastUsed { return left.lastUsed < right.lastUsed }
        return left.modified < right.modified
    }
}
