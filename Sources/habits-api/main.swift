import Foundation
import HTTPServer

// Placeholder until the simulator issue lands: a real server answering "/" with a short text.
var router = Router()
router.get("/") { _, _ in .text("habits-api: the simulator is not built yet\n") }
let logger = Logger(label: "habits-api")
let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
let server = Server(configuration: ServerConfiguration(port: port), responder: router, logger: logger)
try server.start()
FileHandle.standardOutput.write(Data("habits-api listening on http://127.0.0.1:\(server.port)/\n".utf8))
_ = await ShutdownSignal.wait()
await server.shutdown()
exit(0)
