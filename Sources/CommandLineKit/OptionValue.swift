import Foundation

/// Converts option values, with one-line errors that name the option and repeat the bad value.
public enum OptionValue {
    /// A TCP port, 0…65535 (0 asks the kernel for a free port).
    public static func port(_ text: String, option: String) throws(CommandLineError) -> Int {
        guard let value = Int(text), (0...65535).contains(value) else {
            throw CommandLineError("\(option): expected a port from 0 to 65535, got '\(text)'")
        }
        return value
    }

    /// A finite decimal number within `range`.
    public static func number(_ text: String, option: String, in range: ClosedRange<Double>) throws(CommandLineError)
        -> Double
    {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw CommandLineError(
                "\(option): expected a number from \(format(range.lowerBound)) to \(format(range.upperBound)), got '\(text)'"
            )
        }
        return value
    }

    /// A whole number within `range` (counts and limits).
    public static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(CommandLineError)
        -> Int
    {
        guard let value = Int(text), range.contains(value) else {
            throw CommandLineError(
                "\(option): expected a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// A non-negative integer seed.
    public static func seed(_ text: String, option: String) throws(CommandLineError) -> UInt64 {
        guard let value = UInt64(text) else {
            throw CommandLineError("\(option): expected a non-negative integer, got '\(text)'")
        }
        return value
    }

    /// An absolute `http://` or `https://` URL with a host.
    public static func httpURL(_ text: String, option: String) throws(CommandLineError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw CommandLineError("\(option): expected an http:// or https:// URL, got '\(text)'")
        }
        return url
    }

    /// One of `choices` by its name (`--log-level warning`), the error listing them all.
    public static func choice<Value>(_ text: String, option: String, among choices: [(String, Value)])
        throws(CommandLineError) -> Value
    {
        guard let value = choices.first(where: { $0.0 == text })?.1 else {
            let names = choices.map(\.0)
            let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
            throw CommandLineError("\(option): expected \(list), got '\(text)'")
        }
        return value
    }

    /// A non-empty string (directories, hosts).
    public static func nonEmpty(_ text: String, option: String) throws(CommandLineError) -> String {
        guard !text.isEmpty else { throw CommandLineError("\(option): must not be empty") }
        return text
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
