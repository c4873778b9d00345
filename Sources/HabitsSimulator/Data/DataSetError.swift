/// Why a data folder could not be loaded: the file at fault and the problem, e.g.
/// `habits.json: habit "Yoga" has unknown category "Sport"`.
public struct DataSetError: Error, Equatable, CustomStringConvertible {
    /// The file name relative to the data folder (`users.json`, `images/user3.png`).
    public var file: String
    /// What is wrong with it, in one line.
    public var problem: String

    /// Creates an error.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    /// `<file>: <problem>`.
    public var description: String { "\(file): \(problem)" }
}
