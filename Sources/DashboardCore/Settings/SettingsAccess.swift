/// The web's way to the browsers' settings (issue 45): read one browser's, change it, and tell whether a change
/// would change the defaults, over either backend (`SettingsBackend`: files or PostgreSQL). The store itself, its
/// caches, counters and sweeps are internal to this module, so a handler cannot reach past these five calls.
public struct SettingsAccess: Sendable {
    /// The files or the database.
    let backend: any SettingsBackend<Settings>

    /// Access over `backend`.
    init(_ backend: any SettingsBackend<Settings>) {
        self.backend = backend
    }

    /// The defaults, at version 0 (what a browser without a settings cookie has).
    public var defaults: Versioned<Settings> { backend.defaults }

    /// The settings of `id` when they are in memory, else nil (then `loadVersioned`): what a warm page reads.
    public func loadedAtOnce(_ id: BrowserID) -> Versioned<Settings>? { backend.loadedAtOnce(id) }

    /// The settings of `id`, read from the files or the database when not in memory.
    public func loadVersioned(_ id: BrowserID) async throws -> Versioned<Settings> {
        try await backend.loadVersioned(id)
    }

    /// Applies `change` to the settings of `id` and stores them; the stored value.
    @discardableResult
    public func update(_ id: BrowserID, _ change: @escaping @Sendable (inout Settings) -> Void) async throws
        -> Versioned<Settings>
    {
        try await backend.update(id, change)
    }

    /// Whether `change` leaves the defaults as they are (unfavouriting a habit that is no favourite): a browser
    /// without a cookie then gets none (SPEC §7 mints it on the first real change only).
    public func leavesDefaults(_ change: (inout Settings) -> Void) -> Bool {
        var changed = backend.defaultValue
        change(&changed)
        return changed == backend.defaultValue
    }

    /// A number that moves whenever a copy in memory is dropped or replaced (part of the answer epoch).
    var copyChanges: UInt64 { backend.copyChanges }
}
