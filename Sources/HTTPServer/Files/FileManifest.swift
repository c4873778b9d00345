import Compression
import Foundation
import Glibc
import Hashing
import Logging

/// Every servable file under a root directory, read once at startup and kept in memory.
///
/// Requests only ever look names up in this table: no filesystem path is built from request bytes, so
/// `../`, encoded dots, NUL bytes or absolute paths can only miss. Dotfiles (and dot-directories) are
/// skipped, and so are symlinks, so nothing outside the root can be linked in.
struct FileManifest: Sendable {
    /// One file, ready to send.
    struct Entry: Sendable {
        /// The file's bytes.
        var bytes: [UInt8]
        /// The `Content-Type`, from the extension.
        var contentType: String
        /// A strong validator: a hash of the bytes (RFC 9110 §8.8.3), quoted.
        var etag: String
        /// The gzip encoding, made once here; nil for types that do not shrink (images, fonts) or tiny files.
        var gzipped: [UInt8]?
        /// The gzip representation's own strong validator (RFC 9110 §8.8.3: each encoding is its own
        /// representation), quoted.
        var gzipETag: String?
        /// The content digest that goes into the file's fingerprinted name (`app.<fingerprint>.css`).
        var fingerprint: String

        /// An entry for `bytes` served as `contentType`, with its validators and, where worth it, its gzip form.
        init(bytes: [UInt8], contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            // FNV-1a: a content digest for validators and fingerprints, not a defence against forgery (the files are
            // our own). The tag is strong, because it changes whenever any byte does.
            let hash = FNV1a.hash(bytes)
            fingerprint = String(hash, radix: 16)
            etag = "\"" + fingerprint + "-" + String(bytes.count, radix: 16) + "\""
            if MediaType.isCompressible(contentType) && bytes.count >= Gzip.minimumSize {
                let compressed = Gzip.compress(bytes)
                if compressed.count < bytes.count {
                    gzipped = compressed
                    gzipETag = "\"" + fingerprint + "-" + String(bytes.count, radix: 16) + "-gzip\""
                }
            }
        }
    }

    /// Why the manifest could not be built.
    struct BuildError: Error, CustomStringConvertible {
        /// A readable reason, naming the path.
        var description: String
    }

    /// Entries keyed by their path relative to the root, `/`-separated (`app.css`, `icons/star.svg`).
    let entries: [String: Entry]

    /// Files larger than this are skipped (with a warning): Public/ holds CSS, JS and icons, not media.
    static let maximumFileSize = 16 * 1024 * 1024

    /// Walks `root` once.
    init(root: URL, logger: Logger) throws {
        let rootPath = root.standardizedFileURL.path
        var info = stat()
        guard lstat(rootPath, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw BuildError(description: "static file root \(rootPath) is not a directory")
        }
        var entries: [String: Entry] = [:]
        try Self.walk(directory: rootPath, relative: [], into: &entries, logger: logger)
        self.entries = entries
        logger.notice("static files loaded", ["files.root": rootPath, "files.count": "\(entries.count)"])
    }

    private static func walk(
        directory: String, relative: [String], into entries: inout [String: Entry], logger: Logger
    ) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw BuildError(description: "cannot list \(directory): \(error.localizedDescription)")
        }
        for name in names {
            if name.hasPrefix(".") { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else {
                throw BuildError(description: "cannot stat \(path): \(String(cString: strerror(errno)))")
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try walk(directory: path, relative: relative + [name], into: &entries, logger: logger)
            case S_IFREG:
                guard Int(info.st_size) <= maximumFileSize else {
                    logger.warning("static file too large, skipped", ["file.path": path])
                    continue
                }
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw BuildError(description: "cannot read \(path)")
                }
                let bytes = [UInt8](data)
                entries[(relative + [name]).joined(separator: "/")] = Entry(
                    bytes: bytes, contentType: MediaType.forFileName(name))
            default:
                // Symlinks, sockets, devices: never served.
                logger.debug("static entry skipped", ["file.path": path])
            }
        }
    }

    /// The fingerprinted name of `key` (`app.css` → `app.1f3a…9c.css`): the digest goes before the extension so
    /// the type still follows from the name.
    static func fingerprintedName(_ key: String, fingerprint: String) -> String {
        let slash = key.lastIndex(of: "/").map { key.index(after: $0) } ?? key.startIndex
        guard let dot = key[slash...].lastIndex(of: "."), dot > slash else { return key + "." + fingerprint }
        return String(key[..<dot]) + "." + fingerprint + String(key[dot...])
    }
}
