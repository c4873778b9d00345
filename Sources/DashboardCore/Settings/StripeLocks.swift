import Glibc

/// Serialises read-modify-write of a browser's settings file across processes that share the directory (issue 11):
/// an exclusive `flock` on one of 64 lock files in `<settings-dir>/.locks/`, chosen by `BrowserID.stripe`.
///
/// Why stripes beside the files rather than a lock on the file itself: every write renames a new inode into place,
/// so a lock on the old inode would guard nothing; and one lock file per browser would double the file count and
/// make deleting one (expiry, eviction) race with a process waiting on it. 64 lock files are never deleted, so no
/// such race exists, and two browsers sharing a stripe only wait for one fsync'd write, on a human click.
///
/// `flock` excludes open file descriptions, not threads, so each store opens its own descriptors and only uses them
/// on its one writer queue. Invariant: every method runs on that queue (`SettingsStore.queue`), which is what makes
/// the unchecked `Sendable` sound; one stripe is held at a time, so no two stores can deadlock.
final class StripeLocks: @unchecked Sendable {
    /// The number of lock files.
    static let count = 64

    /// The directory holding them.
    let directory: String
    private var descriptors = [Int32](repeating: -1, count: StripeLocks.count)
    private var held: Int?

    /// Creates `<settings-dir>/.locks/` if needed; the lock files are opened on first use.
    init(settingsDirectory: String) throws(FileIOError) {
        directory = settingsDirectory + "/.locks"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw FileIOError(operation: "mkdir", path: directory, code: errno)
        }
    }

    deinit {
        for fd in descriptors where fd >= 0 { close(fd) }
    }

    /// Runs `body` holding stripe `stripe` exclusively against every other store, in this process or another.
    func withLock<T>(stripe: Int, _ body: () throws -> T) throws -> T {
        precondition(held == nil, "one stripe at a time: a second flock on the same descriptor would not wait")
        let fd = try descriptor(stripe)
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw FileIOError(operation: "flock", path: path(stripe), code: errno)
        }
        held = stripe
        defer {
            held = nil
            // Closing would also release it; unlocking keeps the descriptor for the next write.
            flock(fd, LOCK_UN)
        }
        return try body()
    }

    private func descriptor(_ stripe: Int) throws(FileIOError) -> Int32 {
        if descriptors[stripe] >= 0 { return descriptors[stripe] }
        let fd = open(path(stripe), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw FileIOError(operation: "open", path: path(stripe), code: errno) }
        descriptors[stripe] = fd
        return fd
    }

    private func path(_ stripe: Int) -> String {
        directory + "/" + String(stripe, radix: 16)
    }
}
