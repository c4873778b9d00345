import Glibc

/// What `lstat`/`fstat` says about a settings file, reduced to what the store decides with.
struct FileStatus: Equatable, Sendable {
    /// Whether it is a regular file (not a symlink, directory, FIFO or socket).
    var isRegular: Bool
    /// Which file this is and which version of it: see `Identity`.
    var identity: Identity
    /// When it was last written and read: see `FileUsage`.
    var usage: FileUsage
    /// The permission bits.
    var mode: UInt32

    /// Enough to tell that the file on disk is no longer the one a cache copied (issue 11: several processes may
    /// share the directory). Every write renames a new inode into place, so the inode changes; the store also makes
    /// each write's mtime strictly greater than the last one's, so even a reused inode number with the same size
    /// cannot pass for an older version. ctime is in too: the kernel sets it on every rename and time change, which
    /// costs at most a spurious re-read after a read mark, never a stale answer.
    struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
    }

    /// Reads the fields of a `stat` result.
    init(_ status: stat) {
        isRegular = status.st_mode & S_IFMT == S_IFREG
        mode = status.st_mode & 0o7777
        identity = Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Self.nanoseconds(status.st_mtim), changed: Self.nanoseconds(status.st_ctim))
        usage = FileUsage(
            modified: Self.nanoseconds(status.st_mtim), accessed: Self.nanoseconds(status.st_atim))
    }

    /// Nanoseconds since 1970 of a `timespec`.
    static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
