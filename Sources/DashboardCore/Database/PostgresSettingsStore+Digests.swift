extension PostgresSettingsStore.State {
    /// Begins a read or a change of `id` (`SettingsReadAdmission.begin`), first remembering which id its notification
    /// digest names: a notification carries `CookieSigner.notificationDigest(of:)`, never the id (issue 48 point 4),
    /// and every id whose copy can be kept is begun here first, so every copy's id is found by its digest.
    ///
    /// Remembered ids are not forgotten one by one as copies go (the cache evicts on its own); instead, past `limit`
    /// of them every copy is dropped, as after a reconnection, and they start again: rare (twice the cache's ids) and
    /// simple to get right. `flushed` says so (the copies changed). A nil `digest` (no secret yet) remembers nothing.
    mutating func begin(
        _ id: BrowserID, digest: String?, limit: Int
    ) -> (ticket: SettingsReadAdmission.Ticket, flushed: Bool) {
        var flushed = false
        if let digest, digests[digest] == nil {
            if digests.count >= limit {
                admission.dropAll()
                while cache.removeOldest() != nil {}
                digests = [:]
                flushed = true
            }
            digests[digest] = id
        }
        return (admission.begin(id), flushed)
    }
}
