/// Where browsers' settings live: files (`SettingsStore`, the default) or PostgreSQL (`PostgresSettingsStore`,
/// with `--database`). `BrowserSettings` and the handlers see only this.
protocol SettingsBackend<Value>: Sendable {
    /// The stored value.
    associatedtype Value: Codable & Sendable & Equatable
    /// What a browser without stored settings reads.
    var defaultValue: Value { get }
    /// `defaultValue` with version 0 and its digest.
    var defaults: Versioned<Value> { get }
    /// The in-memory copies' bytes (for `/metrics`).
    var cacheBytes: Int { get }
    /// Moves, after the fact, whenever a copy in memory is stored, replaced or dropped: a change here, a change
    /// through another dashboard heard of, a file found changed, a reconnection. An answer made before it moved may
    /// show settings that are no longer so (DashboardWeb's `AnswerEpoch+Dashboard.swift`).
    var copyChanges: UInt64 { get }
    /// Browsers with stored settings (files or rows), for `/metrics`.
    func fileCount() async -> Int
    /// `id`'s settings when they are in memory and current (no I/O, for a page answered on an event loop), else nil.
    func loadedAtOnce(_ id: BrowserID) -> Versioned<Value>?
    /// The settings of `id` with their version and digest; defaults when it has none.
    func loadVersioned(_ id: BrowserID) async throws -> Versioned<Value>
    /// Applies `change` to `id`'s current settings and stores the result before returning it (the 303 comes after).
    @discardableResult
    func update(_ id: BrowserID, _ change: @escaping @Sendable (inout Value) -> Void) async throws -> Versioned<Value>
    /// Calls `action` whenever a browser's settings held here changed through another dashboard (issue 49 point 4):
    /// the app then wakes its parked polls, as after a change made here, so a toggle made on one machine reaches the
    /// browser's open page on another whatever the balancer. The file store has no other writer to hear of.
    func onChangeElsewhere(_ action: @escaping @Sendable () -> Void)
}

extension SettingsBackend {
    /// No other writer: nothing to hear of.
    public func onChangeElsewhere(_ action: @escaping @Sendable () -> Void) {}
}

extension SettingsStore: SettingsBackend where Value: Equatable {}
