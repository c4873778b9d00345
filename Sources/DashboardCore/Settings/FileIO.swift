import Foundation
import Glibc

/// The few file operations the settings store needs, made straight from Glibc calls so that every step of an atomic
/// replace is visible: write a temp file in the same directory, fsync it, rename it over the target, fsync the
/// directory. (`Data.write(options: .atomic)` skips the directory fsync, so a crash could lose the rename.)
enum FileIO {
    /// The whole file and the status of what was read, or nil if it does not exist. Files over `limit` bytes throw
    /// `EFBIG`; anything but a regular file (a symlink, which is never followed, a directory, a FIFO, a socket)
    /// throws with `isNotRegularFile`.
    /// Creates `path` and its missing parents with mode 0700 (issue 23: at 0755 another local user could list the
    /// browser ids in the settings directory and their access times); a directory that exists is left as it is.
    static func createPrivateDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    static func readIfExists(_ path: String, limit: Int) throws(FileIOError) -> (bytes: [UInt8], status: FileStatus)? {
        // O_NOFOLLOW: a symlink planted in the settings directory must not redirect a read (it fails with ELOOP).
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it changes nothing for a regular file.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            // ELOOP: a symlink; ENXIO: a socket.
            if code == ELOOP || code == ENXIO {
                throw FileIOError(operation: FileIOError.notRegularFile, path: path, code: code)
            }
            throw FileIOError(operation: "open", path: path, code: code)
        }
        defer { close(fd) }
        // fstat on the open descriptor, not stat on the path, so the checked file is the one read.
        var status = stat()
        if fstat(fd, &status) != 0 { throw FileIOError(operation: "fstat", path: path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let code = status.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL
            throw FileIOError(operation: FileIOError.notRegularFile, path: path, code: code)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileIOError(operation: "read", path: path, code: errno)
            }
            if count == 0 { return (bytes, FileStatus(status)) }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > limit { throw FileIOError(operation: "read", path: path, code: EFBIG) }
        }
    }

    /// Replaces `path` with `bytes` so that a reader (or a crash) sees either the old or the new content, never a mix.
    /// `times` become the new file's mtime and atime (set before the fsync, so they are as durable as the bytes).
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String, times: FileUsage? = nil)
        throws(FileIOError)
    {
        let temporary = path + temporaryMarker + randomSuffix()
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw FileIOError(operation: "open", path: temporary, code: errno) }
        do throws(FileIOError) {
            try writeAll(bytes, to: fd, path: temporary)
            if let times {
                var values = [timespec(nanoseconds: times.accessed), timespec(nanoseconds: times.modified)]
                if futimens(fd, &values) != 0 { throw FileIOError(operation: "futimens", path: temporary, code: errno) }
            }
            if fsync(fd) != 0 { throw FileIOError(operation: "fsync", path: temporary, code: errno) }
            close(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw FileIOError(operation: "rename", path: temporary, code: code)
        }
        try syncDirectory(directory)
    }

    /// The status of `path` itself (a symlink is not followed), or nil if nothing is there.
    static func status(_ path: String) throws(FileIOError) -> FileStatus? {
        var status = stat()
        if lstat(path, &status) != 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw FileIOError(operation: "lstat", path: path, code: code)
        }
        return FileStatus(status)
    }

    /// Sets the atime of `path` (never through a symlink) and leaves its mtime. False when the file is gone.
    @discardableResult
    static func setAccessTime(_ path: String, to nanoseconds: Int64) throws(FileIOError) -> Bool {
        var values = [timespec(nanoseconds: nanoseconds), timespec(tv_sec: 0, tv_nsec: omitTime)]
        if utimensat(AT_FDCWD, path, &values, AT_SYMLINK_NOFOLLOW) != 0 {
            let code = errno
            if code == ENOENT { return false }
            throw FileIOError(operation: "utimensat", path: path, code: code)
        }
        return true
    }

    /// `UTIME_OMIT` (`<sys/stat.h>`: `(1l << 30) - 2l`), which Swift does not import: leave this time as it is.
    /// Writing the mtime back instead would race a rename and could set an older version's time on a newer file.
    private static let omitTime = (1 << 30) - 2

    /// Deletes `path`; false when it was already gone. The caller fsyncs the directory once for a batch.
    @discardableResult
    static func remove(_ path: String) throws(FileIOError) -> Bool {
        if unlink(path) != 0 {
            let code = errno
            if code == ENOENT { return false }
            throw FileIOError(operation: "unlink", path: path, code: code)
        }
        return true
    }

    /// Renames a file (same directory) and makes the rename durable.
    static func move(_ source: String, to destination: String, directory: String) throws(FileIOError) {
        if rename(source, destination) != 0 { throw FileIOError(operation: "rename", path: source, code: errno) }
        try syncDirectory(directory)
    }

    /// fsyncs a directory so a rename or unlink in it survives a crash.
    static func syncDirectory(_ directory: String) throws(FileIOError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw FileIOError(operation: "open", path: directory, code: errno) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw FileIOError(operation: "fsync", path: directory, code: errno) }
    }

    /// The infix of temp-file names, so a sweep at start can recognise leftovers of a crash.
    static let temporaryMarker = ".tmp-"

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(FileIOError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileIOError(operation: "write", path: path, code: errno)
            }
            offset += written
        }
    }

    private static func randomSuffix() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }
}

extension timespec {
    /// A time given in nanoseconds since 1970.
    init(nanoseconds: Int64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
