import CommandLineKit
import Foundation
import Logging

/// What `habits-api` does after parsing its command line, kept out of `main.swift` (main-actor code, where a Dispatch
/// handler traps).
public enum SimulatorCommand {
    /// Starts the simulator, prints its URL, serves until SIGINT/SIGTERM, shuts down gracefully.
    /// Returns the exit status: 0 after a clean shutdown, 1 when the data or the port is unusable.
    public static func run(_ options: SimulatorOptions, logger: Logger) async -> Int32 {
        let embedded: EmbeddedSimulator
        do {
            embedded = try startEmbeddedSimulator(options: options, logger: logger)
        } catch {
            // One line naming the bad file or the taken port, not a stack trace.
            FileHandle.standardError.write(Data("habits-api: \(error)\n".utf8))
            return 1
        }
        CommandLineTool.announce("Habits API simulator: \(embedded.baseURL.absoluteString)/")
        let signal = await ShutdownSignal.wait()
        logger.notice("signal received", ["signal": "\(signal)"])
        await embedded.shutdown()
        return 0
    }
}
