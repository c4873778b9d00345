import Foundation
import HTTPServer

// Placeholder until the dashboard issue lands: a real server with a "starting up" page and /healthz.
var router = Router()
router.get("/") { _, _ in
    .html(Array("<!doctype html><title>Habits Dashboard</title><p>The Habits Dashboard is starting up.</p>\n".utf8))
}
router.get("/healthz") { _, _ in .text("ok\n") }
let logger = Logger(label: "habits-dashboard")
let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8000
let server = Server(configuration: ServerConfiguration(port: port), responder: router, logger: logger)
try server.start()
FileHandle.standardOutput.write(Data("Habits Dashboard: http://127.0.0.1:\(server.port)/\n".utf8))
_ = await ShutdownSignal.wait()
await server.shutdown()
exit(0)
