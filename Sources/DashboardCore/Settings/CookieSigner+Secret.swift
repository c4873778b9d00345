import Glibc
import Logging

extension CookieSigner {
    /// The secret's file in the settings directory. A dot-file, so it can never be taken for a settings file.
    public static let secretFileName = ".cookie-secret"

    /// The signer of this installation: the secret in `<directory>/.cookie-secret`, created on first start (32 random
    /// bytes, mode 0600) and read on every later one, by every process sharing the directory.
    ///
    /// Creation cannot race another process starting at the same moment: the bytes go to a temp file first, which is
    /// fsynced and then *linked* to the final name. `link` fails if the name exists, so exactly one process's secret
    /// wins, whole, and the others read it. Throws for a secret file of the wrong size rather than replacing it,
    /// since a new secret would silently sign every browser out.
    public static func loadOrCreate(directory: String, logger: Logger) throws(FileIOError) -> CookieSigner {
        let path = directory + "/" + secretFileName
        while true {
            if let key = try readSecret(path, logger: logger) { return CookieSigner(key: key) }
            var generator = SystemRandomNumberGenerator()
            let key = (0..<keyLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let temporary = path + ".new-" + String(UInt64.random(in: .min ... .max), radix: 16)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 { throw FileIOError(operation: "open", path: temporary, code: errno) }
            let written = key.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = written == keyLength && fsync(fd) == 0
            let code = errno
            close(fd)
            guard synced else {
                unlink(temporary)
                throw FileIOError(operation: "write", path: temporary, code: written < 0 ? code : EIO)
            }
            let linked = link(temporary, path) == 0
            let linkError = errno
            unlink(temporary)
            if linked {
                try FileIO.syncDirectory(directory)
                logger.notice("created the settings cookie secret", ["settings.secret": path])
                return CookieSigner(key: key)
            }
            // Another process created it between our read and our link: read theirs on the next turn.
            guard linkError == EEXIST else { throw FileIOError(operation: "link", path: path, code: linkError) }
        }
    }

    private static func readSecret(_ path: String, logger: Logger) throws(FileIOError) -> [UInt8]? {
        guard let (bytes, status) = try FileIO.readIfExists(path, limit: 4096) else { return nil }
        guard bytes.count == keyLength else {
            throw FileIOError(operation: "read (a cookie secret is \(keyLength) bytes)", path: path, code: EINVAL)
        }
        if status.mode & 0o077 != 0 {
            // Anyone who can read the secret can forge cookies; keep it to the owner.
            if chmod(path, 0o600) != 0 { throw FileIOError(operation: "chmod", path: path, code: errno) }
            logger.warning("settings cookie secret was readable by others; mode set to 0600", ["settings.secret": path])
        }
        return bytes
    }
}
