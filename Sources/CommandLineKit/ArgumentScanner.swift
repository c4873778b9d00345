/// Splits command-line arguments into options: `--name value`, `--name=value`, and value-less flags.
///
/// Anything that is not a known option (unknown names, positional words, a missing value, a value
/// given to a flag) is a `CommandLineError`, so typos never pass silently.
///
/// `--` ends the options (POSIX, Utility Syntax Guideline 10): every word after it is an operand, and our
/// programs take none, so one is refused by name. A `--` in first place is the separator a launcher passes
/// through (`swift run habits-dashboard -- --port 9000`), so options after it are still read.
public struct ArgumentScanner {
    /// Whether an option takes a value.
    public enum Kind: Sendable {
        /// `--no-simulation`
        case flag
        /// `--port 8080` or `--port=8080`
        case value
    }

    private var remaining: ArraySlice<String>
    private let options: [String: Kind]

    /// Scans `arguments` (without the program name) for `options`, keyed by their full name (`--port`).
    public init(_ arguments: [String], options: [String: Kind]) {
        self.remaining = arguments.first == "--" ? arguments.dropFirst() : arguments[...]
        self.options = options
    }

    /// The next option and its value (nil for flags), or nil at the end.
    public mutating func next() throws(CommandLineError) -> (name: String, value: String?)? {
        guard let argument = remaining.popFirst() else { return nil }
        if argument == "--" {
            guard let operand = remaining.first else { return nil }
            throw CommandLineError("unexpected argument '\(operand)' after '--': no operands are taken (see --help)")
        }
        guard argument.hasPrefix("--"), argument.count > 2 else {
            throw CommandLineError("unexpected argument '\(argument)' (see --help)")
        }
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let kind = options[name] else {
            throw CommandLineError("unknown option '\(name)' (see --help)")
        }
        switch kind {
        case .flag:
            guard inlineValue == nil else { throw CommandLineError("\(name) takes no value") }
            return (name: name, value: nil)
        case .value:
            if let inlineValue { return (name: name, value: inlineValue) }
            guard let value = remaining.popFirst() else { throw CommandLineError("\(name) needs a value") }
            return (name: name, value: value)
        }
    }
}
