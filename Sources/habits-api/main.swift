import Foundation
import HTTPServer
import HabitsSimulator

// Kept tiny on purpose: main.swift is main-actor code (TOOLS.md), so all Dispatch work lives in libraries.
let options = CommandLineTool.options(program: "habits-api", usage: SimulatorOptions.usage) {
    () throws(CommandLineError) in try SimulatorOptions.parse(Array(CommandLine.arguments.dropFirst()))
}
let logger = Logger(label: "habits-api")
// Placeholder until the simulator issue lands: a real server answering "/" with a short text.
var router = Router()
router.get("/") { _, _ in .text("habits-api: the simulator is not built yet\n") }
let server = Server(configuration: ServerConfiguration(port: options.port), responder: router, logger: logger)
do {
    try server.start()
} catch {
    logger.error("cannot start", ["error": "\(error)"])
    exit(1)
}
CommandLineTool.announce("Habits API simulator: http://127.0.0.1:\(server.port)/")
_ = await ShutdownSignal.wait()
await server.shutdown()
exit(0)
