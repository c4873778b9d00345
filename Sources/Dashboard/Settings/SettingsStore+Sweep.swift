import Foundation

/// What one sweep did (logged, and read by tests).
public struct SweepReport: Equatable, Sendable {
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
        let createdBefore = counts.withLock { $0.created }
        let scan = try scanDirectory()
        let plan = SweepPlan(
            entries: scan.entries, now: Self.nanoseconds(now()), maxAge: Self.nanoseconds(maxAge), keep: maxFiles)
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

    /// At the cap, on the queue: scans and deletes expired files and then `evictionBatch` more, so the new browser
    /// that asked gets in (issue 8: a new browser is never refused because of the cap).
    func makeRoom() throws {
        let scan = try scanDirectory()
        let plan = SweepPlan(
            entries: scan.entries, now: Self.nanoseconds(now()), maxAge: Self.nanoseconds(maxAge),
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
            ])
    }

    // MARK: - Scanning and deleting

    /// The settings files (regular files named `<id>.json`) with their usage, and the ids of leftover temp files.
    private func scanDirectory() throws -> (entries: [SweepPlan.Entry], leftovers: [(BrowserID, String)]) {
        var entries: [SweepPlan.Entry] = []
        var leftovers: [(BrowserID, String)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            if let marker = name.range(of: ".json" + FileIO.temporaryMarker) {
                if let id = BrowserID(String(name[..<marker.lowerBound])) { leftovers.append((id, name)) }
                continue
            }
            guard name.hasSuffix(".json"), let id = BrowserID(String(name.dropLast(5))),
                let status = try FileIO.status(directory.path + "/" + name), status.isRegular
            else { continue }
            entries.append(SweepPlan.Entry(id: id, usage: status.usage))
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
                cache.withLock { _ = $0.removeValue(for: entry.id) }
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
