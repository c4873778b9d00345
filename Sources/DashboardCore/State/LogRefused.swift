import HabitsAPI

/// The upstream did not log a habit (`DashboardState.log`): `refused` when it answered 4xx (it will not take this
/// log), else it could not be reached or failed; `description` is the upstream error's, for the log line.
public struct LogRefused: Error, CustomStringConvertible {
    /// Whether the upstream answered with a 4xx (trying again will not help).
    public var refused: Bool
    /// The upstream error, as logged.
    public var description: String

    /// The failure of `error` (its status decides `refused`).
    init(_ error: HabitsAPIError) {
        if case .status(let status, _) = error {
            refused = (400..<500).contains(status)
        } else {
            refused = false
        }
        description = error.description
    }
}
