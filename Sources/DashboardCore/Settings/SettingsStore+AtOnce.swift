extension SettingsStore {
    /// `id`'s settings from memory when its copy was checked against its file less than the recheck interval ago
    /// (the common, warm case), else nil: then `loadVersioned` looks at the file. No system call but the read mark,
    /// at most hourly per browser (`markRead`), so a page answered on an event loop can read it (issue 21).
    ///
    /// Specialized for the dashboard's `Settings`: it is called through `any SettingsBackend`, where the generic
    /// body looked up the metadata of its cache's types on every call (5 % of a warm page's CPU in a profile).
    @_specialize(where Value == Settings)
    public func loadedAtOnce(_ id: BrowserID) -> Versioned<Value>? {
        let now = clock.now
        guard let entry = cache.withLock({ $0.value(for: id) }), now < entry.checkedAt + recheckInterval else {
            return nil
        }
        markRead(id, usage: entry.usage)
        return entry.loaded
    }
}
