import Postgres

extension PostgresSettingsStore {
    /// Follows `habits_settings`: a browser's copy is dropped when another dashboard wrote a newer version, and every
    /// copy when the listener connects or reconnects (what was sent before it listened is lost). Holds the store weakly, so a
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
            // "<digest> <version>": the id's keyed digest, never the id (issue 48 point 4), matched against the ids
            // this dashboard holds; one it does not hold has nothing here to drop.
            let parts = note.payload.split(separator: " ")
            guard parts.count == 2, let version = UInt64(parts[1]) else { return }
            let dropped = state.withLock { state in
                guard let id = state.digests[String(parts[0])] else { return false }
                state.admission.announced(id, version: version)
                guard let entry = state.cache.peek(id), entry.loaded.version < version else { return false }
                _ = state.cache.removeValue(for: id)
                return true
            }
            if dropped {
                copyChanged()
                changedElsewhere.withLock { $0 }?()
            }
        case .connected, .reconnected:
            // Before the first session pages were already served (nothing kept, but a change in flight may have
            // stored its copy), and after a loss anything may have changed.
            state.withLock { state in
                state.admission.dropAll()
                state.digests = [:]
                state.down = false
                state.listening = true
                while state.cache.removeOldest() != nil {}
            }
            copyChanged()
            changedElsewhere.withLock { $0 }?()
            if event == .reconnected {
                logger.notice("settings database reachable again; copies in memory dropped", [:])
            }
        case .lost:
            // Copies stay, to serve pages while the database is away; none is added until it is heard again.
            state.withLock { state in
                state.down = true
                state.listening = false
            }
            // Browsers not in memory get the defaults from now on, where they were read through.
            copyChanged()
        }
    }
}
