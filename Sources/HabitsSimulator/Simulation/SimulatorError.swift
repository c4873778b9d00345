/// What the simulator refuses: requests naming things it does not know, or a speed outside its range.
public enum SimulatorError: Error, Equatable, CustomStringConvertible {
    /// No simulated user and not the active user.
    case unknownUser(String)
    /// No habit of that name.
    case unknownHabit(String)
    /// Speeds run from `Simulator.speedRange.lowerBound` to its upper bound.
    case speedOutOfRange(Double)

    /// A one-line message safe to show to clients.
    public var description: String {
        switch self {
        case .unknownUser(let id): "Unknown user \"\(id)\"."
        case .unknownHabit(let name): "Unknown habit \"\(name)\"."
        case .speedOutOfRange(let speed):
            "Speed \(speed) is out of range \(Simulator.speedRange.lowerBound)…\(Simulator.speedRange.upperBound)."
        }
    }
}
