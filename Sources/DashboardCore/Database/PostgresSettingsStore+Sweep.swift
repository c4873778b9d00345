import Postgres

extension PostgresSettingsStore {
    /// Deletes rows unused for `maxAge`, then, over `maxRows`, the rows `FileUsage.evictsBefore` puts first (written
    /// once and never read, then least recently used, then oldest write), and counts what is left. One statement
    /// each, so several dashboards sweeping at once only repeat each other's work.
    public func sweep() async throws {
        let now = FileUsage.nanoseconds(clock.date)
        let oldestKept = now - Int64(maxAge * 1_000_000_000)
        let deadline = clock.now + .seconds(30)
        let expired = try await pool.run(
            Statement(
                "DELETE FROM browser_settings WHERE greatest(modified_ns, accessed_ns) < $1", [String(oldestKept)],
                idempotent: true), deadline: deadline)
        let evicted = try await pool.run(
            Statement(
                """
                DELETE FROM browser_settings WHERE browser_id IN (
                    SELECT browser_id FROM browser_settings
                    ORDER BY (accessed_ns <= modified_ns) DESC, greatest(modified_ns, accessed_ns), modified_ns,
                        browser_id
                    LIMIT greatest(0, (SELECT count(*) FROM browser_settings) - $1))
                """, [String(maxRows)], idempotent: true), deadline: deadline)
        let count = try await pool.run(
            Statement("SELECT count(*) AS n FROM browser_settings", idempotent: true), deadline: deadline)
        let rows = count.value("n").flatMap(Int.init) ?? 0
        state.withLock { $0.rows = rows }
        if expired.affectedRows + evicted.affectedRows > 0 {
            logger.info(
                "settings swept",
                [
                    "settings.rows": String(rows), "settings.expired": String(expired.affectedRows),
                    "settings.evicted": String(evicted.affectedRows),
                ])
        }
    }

    /// A new browser at the cap: sweep in the background (the new one is kept; others make room).
    func sweepIfOverTheCap() {
        guard state.withLock({ $0.rows > maxRows }) else { return }
        Task {
            do {
                try await sweep()
            } catch {
                logger.warning("settings sweep failed", ["error": String(describing: error)])
            }
        }
    }

    /// Records a read in the row's `accessed_ns` when due (`FileUsage.needsReadMark`: hourly at most), without the
    /// page waiting for it; a failed mark only makes the row look older than it is.
    func markReadIfDue(_ id: BrowserID, _ entry: Entry) {
        let now = FileUsage.nanoseconds(clock.date)
        guard entry.loaded.version > 0,
            entry.usage.needsReadMark(now: now, interval: FileUsage.readMarkInterval)
        else { return }
        let mark = entry.usage.readMark(now: now)
        state.withLock { state in
            guard var current = state.cache.peek(id), current.loaded.version == entry.loaded.version else { return }
            current.usage.accessed = mark
            state.cache.set(current, for: id)
        }
        Task {
            do {
                _ = try await pool.run(
                    Statement(
                        "UPDATE browser_settings SET accessed_ns = greatest(accessed_ns, $2) WHERE browser_id = $1",
                        [id.rawValue, String(mark)], idempotent: true))
            } catch {
                logger.warning("settings read mark failed", ["error": String(describing: error)])
            }
        }
    }
}
