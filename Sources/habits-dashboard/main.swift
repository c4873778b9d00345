import Dashboard
import Foundation
import HTTPServer

// Kept tiny on purpose: main.swift is main-actor code (TOOLS.md), so all Dispatch work lives in libraries.
let options = CommandLineTool.options(program: "habits-dashboard", usage: DashboardOptions.usage) {
    () throws(CommandLineError) in
    try DashboardOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
}
let logger = Logger(label: "habits-dashboard")
// Placeholder until the dashboard issue lands: a real server with a "starting up" page and /healthz.
var router = Router()
router.get("/") { _, _ in
    .html(Array("<!doctype html><title>Habits Dashboard</title><p>The Habits Dashboard is starting up.</p>\n".utf8))
}
router.get("/healthz") { _, _ in .text("ok\n") }
let server = Server(
    configuration: ServerConfiguration(host: options.host, port: options.port), responder: router, logger: logger)
do {
    try server.start()
} catch {
    logger.error("cannot start", ["error": "\(error)"])
    exit(1)
}
CommandLineTool.announce("Habits Dashboard: http://\(options.host):\(server.port)/")
_ = await ShutdownSignal.wait()
await server.shutdown()
exit(0)
