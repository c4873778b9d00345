import Dispatch
import Foundation

/// The read marks, paths, setting corrupt files aside and the queue hop of `SettingsStore`.
extension SettingsStore {
    /// Records a read in the file's atime when it is due (`FileUsage.needsReadMark`). A failed mark only makes the
    /// file look older than it is, so it is logged and the read goes on.
    func markRead(_ id: BrowserID, _ status: FileStatus) { markRead(id, usage: status.usage) }

    /// Records a read in the file whose times were `usage`, when due: nothing (no system call) most of the time.
    func markRead(_ id: BrowserID, usage: FileUsage) {
        let nowNS = Self.nanoseconds(clock.date)
        guard usage.needsReadMark(now: nowNS, interval: Self.readMarkInterval) else { return }
        do {
            try FileIO.setAccessTime(path(of: id), to: usage.readMark(now: nowNS))
            // The mark changed the ctime; keep the cached copy valid if the file is still the one it came from.
            guard let marked = try FileIO.status(path(of: id)) else { return }
            cache.withLock { cache in
                guard var entry = cache.peek(id), entry.identity.inode == marked.identity.inode,
                    entry.identity.modified == marked.identity.modified, entry.identity.size == marked.identity.size
                else { return }
                entry.identity = marked.identity
                entry.usage = marked.usage
                cache.set(entry, for: id)
            }
        } catch {
            logger.warning("settings read mark failed", ["error": error.description])
        }
    }

    func path(of id: BrowserID) -> String {
        // Safe to concatenate: a BrowserID is exactly 22 characters of [A-Za-z0-9_-], never `/` or `..`.
        directory.path + "/" + id.rawValue + ".json"
    }

    /// Nanoseconds since 1970 of a clock reading (`FileUsage.nanoseconds`).
    static func nanoseconds(_ date: Date) -> Int64 { FileUsage.nanoseconds(date) }

    func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Renames a corrupt file out of the way, so the browser gets defaults and the bad file stays for inspection.
    func moveAside(_ id: BrowserID, wasRegular: Bool, reason: String) throws {
        let stamp = Self.timestampFormatter.string(from: clock.date)
        let destination = path(of: id) + ".corrupt-" + stamp
        try FileIO.move(path(of: id), to: destination, directory: directory.path)
        if wasRegular { counts.withLock { $0.files -= 1 } }
        logger.error(
            "corrupt settings file moved aside",
            ["settings.file": destination, "settings.reason": String(reason.prefix(200))])
    }

    private static var timestampFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return formatter
    }

    func decode(_ bytes: [UInt8], status: FileStatus) throws -> Versioned<Value> {
        let value = try JSONDecoder().decode(Value.self, from: Data(bytes))
        // The digest is of the canonical encoding, so a hand-formatted file digests like the store's own.
        return Versioned(
            value: value, version: UInt64(clamping: status.usage.modified),
            digest: SettingsDigest.of(try Self.encode(value)))
    }

    /// The canonical bytes of `value` (`SettingsCodec`).
    static func encode(_ value: Value) throws -> [UInt8] { try SettingsCodec.encode(value) }
}
