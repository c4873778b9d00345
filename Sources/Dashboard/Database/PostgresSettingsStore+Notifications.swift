import Postgres

extension PostgresSettingsStore {
    /// Follows `habits_settings`: a browser's copy is dropped when another dashboard wrote a newer version, and every
    /// copy when the listener reconnects (what was sent while it was away is lost). Holds the store weakly, so a
    /// store nobody uses goes away and its task ends with the stream.
    func watchNotifications() -> Task<Void, Never> {
        let events = listener.subscribe(channels: [Self.channel])
        return Task { [weak self] in
            for await event in events {
                guard let self else { return }
                self.handle(event)
            }
        }
    }

    /// What one listener event does to the copies in memory.
    func handle(_ event: PostgresListener.Event) {
        switch event {
        case .notification(let note):
            let parts = note.payload.split(separator: " ")
            guard parts.count == 2, let id = BrowserID(String(parts[0])), let version = UInt64(parts[1])
            else { return }
            state.withLock { state in
                state.admission.announced(id, version: version)
                if let entry = state.cache.peek(id), entry.loaded.version < version {
                    _ = state.cache.removeValue(for: id)
                }
            }
        case .connected:
            // The first session: nothing was missed but what another dashboard changed in the moment before it,
            // while this one had nothing of the database in memory yet.
            state.withLock { state in
                state.admission.dropAll()
                state.down = false
            }
        case .reconnected:
            state.withLock { state in
                state.admission.dropAll()
                state.down = false
                while state.cache.removeOldest() != nil {}
            }
            logger.notice("settings database reachable again; copies in memory dropped", [:])
        case .lost:
            state.withLock { $0.down = true }
        }
    }
}
