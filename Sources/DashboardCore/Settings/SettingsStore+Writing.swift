import Dispatch
import Foundation
import Logging
import Synchronization
import Timing

/// The file store's writes, each one on its queue: read, change, write the new file under its stripe's lock, and
/// move a corrupt file aside.
extension SettingsStore {
    /// Reads `id`'s file, applies `change`, and writes the new file when the value changed; the stored value.
    func readModifyWrite(_ id: BrowserID, _ change: (inout Value) -> Void) throws -> Versioned<Value> {
        let path = path(of: id)
        // Outside the stripe lock: eviction takes the locks of the files it deletes, one at a time.
        if counts.withLock({ $0.files >= maxFiles }), try FileIO.status(path) == nil {
            try makeRoom()
        }
        return try locks.withLock(stripe: id.stripe) {
            // Under the lock the file is read again, never taken from the cache: the cache may be a read behind,
            // and a read-modify-write must start from what is on disk (issue 11: no lost toggle across processes).
            var current = try readForUpdate(id)
            let nowNS = Self.nanoseconds(clock.date)
            change(&current.value)
            let bytes = try Self.encode(current.value)
            if let previous = current.file, previous.bytes == bytes {
                // Nothing changed (a repeated "favourite"): no write, but it was a use.
                markRead(id, previous.status)
                return try decode(bytes, status: previous.status)
            }
            beforeWrite?()
            let times = FileUsage.forWrite(now: nowNS, replacing: current.file?.status.usage)
            try FileIO.writeAtomically(bytes, to: path, directory: directory.path, times: times)
            let loaded = Versioned(
                value: current.value, version: UInt64(times.modified), digest: SettingsDigest.of(bytes))
            // Under the lock nobody else can have replaced it yet, so this is the identity of what was written.
            if let written = try FileIO.status(path) {
                let entry = CacheEntry(
                    loaded: loaded, identity: written.identity, usage: written.usage, checkedAt: clock.now)
                cache.withLock { _ = $0.set(entry, for: id, cost: Self.cost(written.identity)) }
                copyChanged()
            } else {
                dropCopy(id)
            }
            if current.file == nil {
                counts.withLock {
                    $0.files += 1
                    $0.created += 1
                }
                evictAheadIfNearTheCap()
            }
            return loaded
        }
    }

    /// `id`'s file as it is on disk, holding its stripe lock; a bad file is moved aside and reads as absent.
    func readForUpdate(_ id: BrowserID) throws -> (value: Value, file: (bytes: [UInt8], status: FileStatus)?) {
        let read: (bytes: [UInt8], status: FileStatus)?
        do {
            read = try FileIO.readIfExists(path(of: id), limit: Self.maxFileBytes)
        } catch {
            guard error.isMovedAside else { throw error }
            // A symlink (never followed) or a directory: renaming moves the link or directory itself, never what a
            // link points to, so nothing outside the settings directory is touched.
            try moveAside(id, wasRegular: error.code == EFBIG, reason: error.description)
            return (defaultValue, nil)
        }
        guard let read else { return (defaultValue, nil) }
        do {
            return (try decode(read.bytes, status: read.status).value, read)
        } catch {
            try moveAside(id, wasRegular: true, reason: String(describing: error))
            return (defaultValue, nil)
        }
    }

    /// Moves a bad file aside unless someone replaced it since `seen`; the browser gets defaults.
    func quarantine(_ id: BrowserID, seen: FileStatus, reason: String) async throws -> Versioned<Value> {
        try await onQueue {
            try self.locks.withLock(stripe: id.stripe) {
                guard let current = try FileIO.status(self.path(of: id)), current.identity == seen.identity else {
                    return
                }
                try self.moveAside(id, wasRegular: current.isRegular, reason: reason)
            }
        }
        dropCopy(id)
        return defaults
    }
}
