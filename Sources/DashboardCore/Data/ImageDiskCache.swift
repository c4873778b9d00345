import Foundation
import Glibc
import HabitsAPI
import Logging
import Synchronization
import Timing

/// Profile images kept on disk (issue 13), so person pages keep their pictures while the upstream is down, even
/// after a restart: `<cache-dir>/images/<hex of the user id>.img`, each the content type, a newline, the bytes.
///
/// Bounded in bytes (`budgetBytes`): past it the least recently used go first, "used" being the file's mtime,
/// which a read from disk moves to now (the injected clock's wall time: the order survives a restart). Only raster image types are kept, and
/// each file is written atomically (temp file, fsync, rename, fsync the directory), like the settings files.
final class ImageDiskCache: Sendable {
    private struct Entry {
        var bytes: Int
        /// Nanoseconds since 1970 of the last write or read from disk.
        var used: Int64
        /// `ContentDigest` of the body, when known (not for files found at start): an unchanged image is not
        /// written again.
        var digest: UInt64?
    }

    /// The directory (`<cache-dir>/images`).
    public let directory: String
    /// Most bytes of files kept.
    public let budgetBytes: Int
    private let logger: Logger
    private let clock: any TimeSource
    private let entries: Mutex<[String: Entry]>

    /// Longest user id kept (its file name is twice as long).
    static let maxIDBytes = 100

    /// Opens (creating it if needed) `directory` and indexes the images already there; leftover temp files of a
    /// write cut short are deleted.
    public init(
        directory: String, budgetBytes: Int = 16 << 20, clock: any TimeSource = SystemTimeSource(), logger: Logger
    ) {
        self.directory = directory
        self.clock = clock
        self.budgetBytes = budgetBytes
        self.logger = logger
        var found: [String: Entry] = [:]
        do {
            try FileIO.createPrivateDirectory(directory)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                let path = directory + "/" + name
                if name.contains(FileIO.temporaryMarker) {
                    _ = try? FileIO.remove(path)
                    continue
                }
                guard name.hasSuffix(".img"), let status = try? FileIO.status(path), status.isRegular else {
                    continue
                }
                found[name] = Entry(bytes: Int(status.identity.size), used: status.usage.modified, digest: nil)
            }
        } catch {
            logger.warning(
                "image cache directory unusable: images are kept in memory only",
                ["cache.dir": directory, "error": String(describing: error)])
        }
        entries = Mutex(found)
        evictOverBudget(keeping: nil)
    }

    /// Bytes of the files kept now.
    public var totalBytes: Int { entries.withLock { $0.values.reduce(0) { $0 + $1.bytes } } }

    /// The image of user `id` on disk, or nil; reading it marks it used.
    public func load(id: String) -> (bytes: [UInt8], contentType: String)? {
        guard let name = Self.fileName(id), entries.withLock({ $0[name] != nil }) else { return nil }
        let path = directory + "/" + name
        guard let read = try? FileIO.readIfExists(path, limit: budgetBytes),
            let newline = read.bytes.firstIndex(of: 10),
            let type = String(validating: read.bytes[..<newline], as: UTF8.self),
            let mediaType = Self.rasterType(type)
        else {
            // Gone or damaged: forget it (a damaged file is deleted; the next good answer writes it again).
            _ = try? FileIO.remove(path)
            entries.withLock { $0[name] = nil }
            return nil
        }
        let now = nanosecondsNow()
        var times = [timespec(nanoseconds: now), timespec(nanoseconds: now)]
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
        entries.withLock { $0[name]?.used = now }
        return (Array(read.bytes[(newline + 1)...]), mediaType)
    }

    /// Keeps `bytes` as user `id`'s image, unless the type is not a raster image or the same bytes are kept already.
    /// Writes on the caller's thread: call it off the request path.
    public func store(id: String, bytes: [UInt8], contentType: String) {
        guard let name = Self.fileName(id), let mediaType = Self.rasterType(contentType) else { return }
        let body = Array((mediaType + "\n").utf8) + bytes
        guard body.count <= budgetBytes else { return }
        var digest = ContentDigest()
        for byte in body { digest.feed(byte: byte) }
        let value = digest.value
        if entries.withLock({ $0[name]?.digest == value }) { return }
        do {
            try FileIO.writeAtomically(body, to: directory + "/" + name, directory: directory)
        } catch {
            logger.warning("image not written to disk", ["user.id": id, "error": error.description])
            return
        }
        entries.withLock { $0[name] = Entry(bytes: body.count, used: nanosecondsNow(), digest: value) }
        evictOverBudget(keeping: name)
    }

    /// Deletes the least recently used files (never `keeping`) until the rest fit the budget.
    private func evictOverBudget(keeping: String?) {
        let victims = entries.withLock { entries -> [String] in
            var total = entries.values.reduce(0) { $0 + $1.bytes }
            guard total > budgetBytes else { return [] }
            var victims: [String] = []
            for (name, entry) in entries.sorted(by: { $0.value.used < $1.value.used }) where name != keeping {
                guard total > budgetBytes else { break }
                total -= entry.bytes
                entries[name] = nil
                victims.append(name)
            }
            return victims
        }
        for name in victims { _ = try? FileIO.remove(directory + "/" + name) }
    }

    /// `<hex of the id's UTF-8>.img`: any id gives a safe file name. Nil for an empty or overlong id.
    static func fileName(_ id: String) -> String? {
        let utf8 = Array(id.utf8)
        guard !utf8.isEmpty, utf8.count <= maxIDBytes else { return nil }
        let hex = utf8.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }
        return hex.joined() + ".img"
    }

    /// The media type of `contentType` if it is a raster image type (the rule DashboardWeb's `ImageHandler` applies).
    static func rasterType(_ contentType: String) -> String? {
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let type, ImageRequest.rasterTypes.contains(type) else { return nil }
        return type
    }

    /// The clock's wall time in nanoseconds since 1970, as file times count.
    private func nanosecondsNow() -> Int64 {
        Int64((clock.date.timeIntervalSince1970 * 1e9).rounded())
    }
}
