import Foundation

/// The glue a `main.swift` needs around an options parser, kept out of `main.swift` so it stays tiny.
public enum CommandLineTool {
    /// Runs `parse`; on `--help` prints `usage` to stdout and exits 0, on a bad command line prints
    /// `<program>: <message>` to stderr and exits 2. Otherwise returns the options.
    public static func options<Options>(
        program: String, usage: String, parse: () throws(CommandLineError) -> CommandLineOutcome<Options>
    ) -> Options {
        do {
            switch try parse() {
            case .run(let options):
                return options
            case .help:
                FileHandle.standardOutput.write(Data(usage.utf8))
                exit(0)
            }
        } catch {
            FileHandle.standardError.write(Data("\(program): \(error.message)\n".utf8))
            exit(2)
        }
    }

    /// Writes one line to stdout right away (unbuffered, so a parent process reading the pipe sees it).
    /// SIGINT/SIGTERM are caught from before the line goes out: whoever reads it may signal at once.
    public static func announce(_ line: String) {
        ShutdownSignal.arm()
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
