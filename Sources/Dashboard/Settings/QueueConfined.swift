/// A mutable box touched only on one serial queue. Invariant: `value` is read and written only by code running on the
/// owner's queue (`SettingsStore.queue`), which is what makes the unchecked `Sendable` sound.
final class QueueConfined<T>: @unchecked Sendable {
    /// The confined value.
    var value: T
    /// Wraps a value.
    init(_ value: T) { self.value = value }
}
