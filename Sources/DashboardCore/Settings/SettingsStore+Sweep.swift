import Foundation
import Glibc

/// What one sweep did (logged, and read by tests).
struct SweepReport: Equatable, Sendable {
    /// Settings files left.
    public var kept: Int
    /// Files deleted for being unused longer than the maximum age.
    public var expired: Int
    /// Files deleted to stay within the cap.
    public var evicted: Int
    /// Temp files of interrupted writes removed.
    public var leftovers: Int
}

extension SettingsStore {
    /// The files one eviction at the cap frees: 1% of the cap (at most 1 000), so at 100 000 files one directory scan
    /// admits the next thousand new browsers instead of one.
    var evictionBatch: Int { min(1_000, max(1, maxFiles / 100)) }

    /// Deletes expired settings, evicts down to the cap and removes temp files of interrupted writes. The directory
    /// scan runs on the calling thread (never the writers' queue, so writes go on meanwhile); each deletion then
    /// runs on the queue under its stripe lock and only if the file is still as the scan saw it, so a browser that
    /// came back in between keeps its settings. Call it off the request path: at start and from `SettingsSweeper`.
    @discardableResult
    public func sweep() throws -> SweepReport {
        try sweep(keep: maxFiles)
    }

    /// A sweep that leaves at most `keep` files. Never call it on `queue`.
    @discardableResult
    func sweep(keep: Int) throws -> SweepReport {
        let createdBefore = counts.withLock { $0.created }
        let scan = try scanDirectory()
        let plan = SweepPlan(
            entries: scan.entries, now: Self.nanoseconds(clock.date), maxAge: Self.nanoseconds(maxAge), keep: keep)
        return try queue.sync {
            let leftovers = try removeLeftovers(scan.leftovers)
            let expired = try delete(plan.expired)
            let evicted = try delete(plan.evicted)
            let kept = counts.withLock {
                // The scan is the truth for what existed when it ran; files this store created since are added back.
                $0.files = scan.entries.count - expired - evicted + ($0.created - createdBefore)
                return $0.files
            }
            if expired + evicted + leftovers > 0 {
                try FileIO.syncDirectory(directory.path)
                logger.notice(
                    "settings swept",
                    [
                        "settings.files": String(kept), "settings.expired": String(expired),
                        "settings.evicted": String(evicted), "settings.leftovers": String(leftovers),
                    ])
            }
            return SweepReport(kept: kept, expired: expired, evicted: evicted, leftovers: leftovers)
        }
    }

    /// After a new file, on the queue: when the store is within half a batch of its cap, evict a batch in the
    /// background (scan on `sweepQueue`), so new browsers normally find room without waiting for a scan and
    /// `makeRoom` is only the fallback for files arriving faster than the background frees them. Only for caps of
    /// 1 000 and more, where a batch is at least 10 files; small caps (tests) evict in `makeRoom` alone.
    func evictAheadIfNearTheCap() {
        guard evictionBatch >= 10 else { return }
        let start = counts.withLock { counts in
            guard !counts.evictingAhead, counts.files >= maxFiles - evictionBatch / 2 else { return false }
            counts.evictingAhead = true
            return true
        }
        guard start else { return }
        sweepQueue.async { [self] in
            do {
                try sweep(keep: maxFiles - evictionBatch)
            } catch {
                logger.error("settings eviction failed", ["error": String(describing: error)])
            }
            counts.withLock { $0.evictingAhead = false }
        }
    }

    /// Waits until background evictions started so far have finished (tests).
    func backgroundEvictionsFinished() async {
        await withCheckedContinuation { continuation in sweepQueue.async { continuation.resume() } }
    }

    /// At the cap, on the queue: scans and deletes expired files and then `evictionBatch` more, so the new browser
    /// that asked gets in (issue 8: a new browser is never refused because of the cap).
    func makeRoom() throws {
        let started = clock.now
        let scan = try scanDirectory()
        let plan = SweepPlan(
            entries: scan.entries, now: Self.nanoseconds(clock.date), maxAge: Self.nanoseconds(maxAge),
            keep: maxFiles - evictionBatch)
        let expired = try delete(plan.expired)
        let evicted = try delete(plan.evicted)
        counts.withLock { $0.files = scan.entries.count - expired - evicted }
        try FileIO.syncDirectory(directory.path)
        logger.warning(
            "settings store at its cap: evicted least recently used",
            [
                "settings.max": String(maxFiles), "settings.expired": String(expired),
                "settings.evicted": String(evicted),
                "duration.ms": String((clock.now - started) / .milliseconds(1)),
            ])
    }

    // MARK: - Scanning and deleting

    /// The settings files (regular files named `<id>.json`) with their usage, and the ids of leftover temp files.
    /// `readdir` and `fstatat` on the directory's descriptor, not paths: at 100 000 files this is the whole cost of
    /// a sweep, and it must stay small enough to run while a new browser waits (`makeRoom`).
    private func scanDirectory() throws -> (entries: [SweepPlan.Entry], leftovers: [(BrowserID, String)]) {
        guard let handle = opendir(directory.path) else {
            throw FileIOError(operation: "opendir", path: directory.path, code: errno)
        }
        defer { closedir(handle) }
        let fd = dirfd(handle)
        var entries: [SweepPlan.Entry] = []
        var leftovers: [(BrowserID, String)] = []
        let suffix = Array(".json".utf8)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        while let entry = readdir(handle) {
            let namePointer = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let name = Array(UnsafeRawBufferPointer(start: namePointer, count: strlen(namePointer)))
            guard name.count >= BrowserID.length + suffix.count, name[BrowserID.length...].starts(with: suffix),
                let id = BrowserID(String(decoding: name[..<BrowserID.length], as: UTF8.self))
            else { continue }
            if name.count > BrowserID.length + suffix.count {
                let rest = String(decoding: name[(BrowserID.length + suffix.count)...], as: UTF8.self)
                if rest.hasPrefix(FileIO.temporaryMarker) {
                    leftovers.append((id, String(decoding: name, as: UTF8.self)))
                }
                continue
            }
            var status = stat()
            guard fstatat(fd, namePointer, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let file = FileStatus(status)
            if file.isRegular { entries.append(SweepPlan.Entry(id: id, usage: file.usage)) }
        }
        return (entries, leftovers)
    }

    /// Deletes each planned file that is still as planned; returns how many went. On the queue.
    private func delete(_ entries: [SweepPlan.Entry]) throws -> Int {
        var deleted = 0
        for entry in entries {
            let path = path(of: entry.id)
            let removed = try locks.withLock(stripe: entry.id.stripe) {
                // Read or written since the scan: it is in use after all.
                guard let current = try FileIO.status(path), current.isRegular, current.usage == entry.usage else {
                    return false
                }
                return try FileIO.remove(path)
            }
            if removed {
                deleted += 1
                dropCopy(entry.id)
            }
        }
        return deleted
    }

    /// Removes temp files of writes that never finished. A writer holds its stripe lock from creating its temp file
    /// to renaming it, so a temp file seen under the lock belongs to no write in progress, in any process.
    private func removeLeftovers(_ leftovers: [(BrowserID, String)]) throws -> Int {
        var removed = 0
        for (id, name) in leftovers {
            let gone = try locks.withLock(stripe: id.stripe) { try FileIO.remove(directory.path + "/" + name) }
            if gone {
                removed += 1
                logger.notice("removed leftover settings temp file", ["settings.file": name])
            }
        }
        return removed
    }

    static func nanoseconds(_ interval: TimeInterval) -> Int64 {
        Int64((interval * 1_000_000_000).rounded())
    }
}
