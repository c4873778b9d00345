/// A command line the program cannot run with. The message is one line, printed to stderr before exit 2.
public struct CommandLineError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, naming the option (`--speed: expected a number from 0.1 to 10, got 'fast'`).
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// What a command line asks for: run with these options, or print the usage.
public enum CommandLineOutcome<Options> {
    /// Run with the parsed options.
    case run(Options)
    /// `--help` was given: print the usage and exit 0.
    case help
}

extension CommandLineOutcome: Equatable where Options: Equatable {}
extension CommandLineOutcome: Sendable where Options: Sendable {}
