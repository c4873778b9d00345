import Foundation
import HTTPServer
import Logging

/// A running Habits API simulator: the HTTP server and the simulation behind it, started in-process.
///
/// `habits-dashboard` starts one when no `--upstream` is given; `habits-api` runs one alone; tests bind port 0.
public final class EmbeddedSimulator: Sendable {
    /// The HTTP server answering the API.
    public let server: Server
    /// The simulation behind it.
    public let simulator: Simulator
    /// The address the server is bound to.
    public let host: String

    /// Wraps a started server and its simulator.
    public init(server: Server, simulator: Simulator, host: String) {
        self.server = server
        self.simulator = simulator
        self.host = host
    }

    /// The bound port (useful after binding port 0).
    public var port: Int { server.port }

    /// The API's base URL, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL {
        let shown = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(shown):\(port)")!
    }

    /// Stops the ticker, then shuts the server down gracefully (in-flight requests finish).
    public func shutdown() async {
        simulator.stop()
        await server.shutdown()
    }
}

/// Loads the data (built-in, or a HabitServer-format folder), creates the simulator and serves it.
///
/// Throws `DataSetError` naming the bad file, or the server's start error (e.g. the port is taken).
/// With `runSimulation` the ticker starts at once; otherwise it waits for `/control/simulator/start`.
public func startEmbeddedSimulator(
    host: String = "127.0.0.1", port: Int = 8080, speed: Double = 1, seed: UInt64? = nil,
    dataDirectory: URL? = nil, generated: (users: Int, habits: Int)? = nil, runSimulation: Bool = true,
    history: Bool = false, logger: Logger
) throws -> EmbeddedSimulator {
    let (server, simulator) = try makeSimulatorServer(
        host: host, port: port, speed: speed, seed: seed, dataDirectory: dataDirectory, generated: generated,
        logger: logger)
    if history { simulator.playHistory() }
    // The statistics encoded before the first client asks: a made-up network of thousands of people takes a while,
    // which must not count against that client's timeout (issue 21 point 4).
    _ = simulator.snapshot()
    try server.start()
    if runSimulation { simulator.start() }
    let embedded = EmbeddedSimulator(server: server, simulator: simulator, host: host)
    logger.notice(
        "habits API simulator listening",
        [
            "url": embedded.baseURL.absoluteString, "simulator.seed": "\(simulator.seed)",
            "simulator.data": dataDirectory?.path
                ?? generated.map { "generated: \($0.users) users, \($0.habits) habits" } ?? "built-in",
            "simulator.state": runSimulation ? "running" : "stopped",
        ])
    return embedded
}

/// `startEmbeddedSimulator` with the `habits-api` command line's options.
public func startEmbeddedSimulator(options: SimulatorOptions, logger: Logger) throws -> EmbeddedSimulator {
    try startEmbeddedSimulator(
        host: options.host, port: options.port, speed: options.speed, seed: options.seed,
        dataDirectory: options.dataDirectory.map { URL(fileURLWithPath: $0) }, generated: options.generated,
        runSimulation: options.simulationEnabled, history: options.history, logger: logger)
}

/// The server and simulator for `options`, neither started: call `server.start()` and `simulator.start()`.
public func makeSimulatorServer(options: SimulatorOptions, logger: Logger) throws -> (Server, Simulator) {
    try makeSimulatorServer(
        host: options.host, port: options.port, speed: options.speed, seed: options.seed,
        dataDirectory: options.dataDirectory.map { URL(fileURLWithPath: $0) }, generated: options.generated,
        logger: logger)
}

/// Loads (or makes up, from the simulation's seed) the data and wires a simulator to a server; nothing is bound or
/// ticking yet.
func makeSimulatorServer(
    host: String, port: Int, speed: Double, seed: UInt64?, dataDirectory: URL?,
    generated: (users: Int, habits: Int)? = nil, logger: Logger
) throws -> (Server, Simulator) {
    let seed = seed ?? (generated == nil ? nil : UInt64.random(in: .min ... .max))
    let dataSet =
        try dataDirectory.map { directory throws(DataSetError) in try DataSetLoader.load(directory: directory) }
        ?? generated.map { GeneratedData.dataSet(users: $0.users, habits: $0.habits, seed: seed ?? 0) }
        ?? DataSet.builtIn()
    let simulator = Simulator(dataSet: dataSet, seed: seed, speed: speed, logger: logger)
    let server = Server(
        configuration: ServerConfiguration(host: host, port: port),
        responder: SimulatorApp(simulator: simulator).routes, logger: logger)
    return (server, simulator)
}
